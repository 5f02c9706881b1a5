// GET /api/overview – the overview's figures and short lists (the home page polls it every 2 s)
import { json, route } from "@/lib/http/route.ts";
import { getOverview } from "@/lib/overview/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async () => json(await getOverview()));
