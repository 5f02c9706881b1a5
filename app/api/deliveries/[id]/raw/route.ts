// GET /api/deliveries/:id/raw – the exact stored bytes, as a download (never rendered by the browser)
import { route } from "@/lib/http/route.ts";
import { getDeliveryRawBytes, parseDeliveryId } from "@/lib/deliveries/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (_request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const raw = await getDeliveryRawBytes({ id: parseDeliveryId(id) });
  return new Response(new Uint8Array(raw.bytes), {
    headers: {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${raw.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
