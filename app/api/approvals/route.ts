// GET /api/approvals – approval requests and rules · POST – a runtime asks before running a tool
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { approvalsEndpoint, requestApprovalEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: approvalsEndpoint, POST: requestApprovalEndpoint });
