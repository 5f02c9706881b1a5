// GET /api/approvals/{id}?wait=30 – an approval's state, long-polled until decided
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { approvalEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: approvalEndpoint });
