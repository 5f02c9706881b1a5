// GET /api/deliveries?outcome=&group=&cursor=&limit= – the callback audit log, newest first, one page
import { json, route } from "@/lib/http/route.ts";
import { listDeliveries, parseDeliveryQuery } from "@/lib/deliveries/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  const { query } = parseDeliveryQuery(Object.fromEntries(new URL(request.url).searchParams), "strict");
  return json(await listDeliveries({ query }));
});
