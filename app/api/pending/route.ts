// GET /api/pending?sort=oldest|newest – calls awaiting a result across threads, and active subscriptions
import { json, route } from "@/lib/http/route.ts";
import { pendingQuerySchema } from "@/lib/pending/schemas.ts";
import { getPendingSnapshot } from "@/lib/pending/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  const { sort } = pendingQuerySchema.parse({ sort: new URL(request.url).searchParams.get("sort") ?? undefined });
  return json(await getPendingSnapshot({ sort }));
});
