// POST /api/approvals/{id}/decision – approve or deny (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { decideApprovalEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: decideApprovalEndpoint });
