// GET /api/insights – confidence distribution, nextAction counts, error types by tool, slowest tools
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { insightsEndpoint } from "@/lib/insights/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: insightsEndpoint });
