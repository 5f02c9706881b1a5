// GET /api/outbox/{id} – one outgoing delivery with every attempt
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { outboxMessageEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: outboxMessageEndpoint });
