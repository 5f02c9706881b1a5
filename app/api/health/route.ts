// GET /api/health – status, database kind and migration state
import { getHealth } from "@/lib/health/service.ts";
import { json, route } from "@/lib/http/route.ts";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const health = await getHealth();
  return json(health, { status: health.status === "ok" ? 200 : 503 });
});
