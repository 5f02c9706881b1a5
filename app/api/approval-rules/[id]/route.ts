// DELETE /api/approval-rules/{id} – remove an auto-approve rule (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { deleteApprovalRuleEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ DELETE: deleteApprovalRuleEndpoint });
