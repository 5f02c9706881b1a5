// GET /api/alert-rules/{id} – one rule · PATCH – change it · DELETE – remove it (admin)
import { deleteAlertRuleEndpoint, getAlertRuleEndpoint, patchAlertRuleEndpoint } from "@/lib/alerts/endpoints.ts";
import { nextRoutes } from "@/lib/http/next-adapter.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({
  GET: getAlertRuleEndpoint,
  PATCH: patchAlertRuleEndpoint,
  DELETE: deleteAlertRuleEndpoint,
});
