// GET /api/alert-rules – alert rules with when each last fired · POST – create one (admin)
import { createAlertRuleEndpoint, listAlertRulesEndpoint } from "@/lib/alerts/endpoints.ts";
import { nextRoutes } from "@/lib/http/next-adapter.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({
  GET: listAlertRulesEndpoint,
  POST: createAlertRuleEndpoint,
});
