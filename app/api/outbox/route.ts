// GET /api/outbox – outgoing deliveries (relayed results, answers, approval decisions)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { outboxEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: outboxEndpoint });
