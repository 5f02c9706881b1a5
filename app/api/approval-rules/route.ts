// POST /api/approval-rules – approve a tool's requests at once (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { createApprovalRuleEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: createApprovalRuleEndpoint });
