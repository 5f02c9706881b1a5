// GET /api/alerts – the alert history, newest first (?rule=, ?before=, ?limit=)
import { listAlertsEndpoint } from "@/lib/alerts/endpoints.ts";
import { nextRoutes } from "@/lib/http/next-adapter.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listAlertsEndpoint });
