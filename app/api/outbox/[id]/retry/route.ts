// POST /api/outbox/{id}/retry – send a dead-lettered delivery again (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { retryOutboxEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: retryOutboxEndpoint });
