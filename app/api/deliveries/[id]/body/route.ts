// GET /api/deliveries/:id/body – one delivery's stored body as UTF-8 text (JSON), for the raw view
import { json, route } from "@/lib/http/route.ts";
import { getDeliveryBody, parseDeliveryId } from "@/lib/deliveries/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (_request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  return json(await getDeliveryBody({ id: parseDeliveryId(id) }));
});
