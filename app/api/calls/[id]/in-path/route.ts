// GET /api/calls/{id}/in-path – the call's way to the runtime (outgoing messages, attempts, holds, approvals, changes)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { callInPathEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: callInPathEndpoint });
