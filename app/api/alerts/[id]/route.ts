// GET /api/alerts/{id} – one alert: what it said, the calls behind it, its deliveries
import { getAlertEndpoint } from "@/lib/alerts/endpoints.ts";
import { nextRoutes } from "@/lib/http/next-adapter.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: getAlertEndpoint });
