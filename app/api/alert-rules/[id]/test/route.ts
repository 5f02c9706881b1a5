// POST /api/alert-rules/{id}/test – send a test message to the rule's destinations now (admin)
import { testAlertRuleEndpoint } from "@/lib/alerts/endpoints.ts";
import { nextRoutes } from "@/lib/http/next-adapter.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: testAlertRuleEndpoint });
