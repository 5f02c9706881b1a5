// GET /api/subscriptions – active and cancelled subscriptions with their result counts
import { json, route } from "@/lib/http/route.ts";
import { getSubscriptionsSnapshot } from "@/lib/subscriptions/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async () => json(await getSubscriptionsSnapshot()));
