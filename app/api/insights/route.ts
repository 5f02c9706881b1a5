// GET /api/insights – confidence distribution, nextAction counts, error types by tool, slowest tools
import { json, route } from "@/lib/http/route.ts";
import { getInsights } from "@/lib/insights/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async () => json(await getInsights()));
