// GET /api/calls/{id}/deliveries/{deliveryId}/body – the raw bytes of one delivery to this call, exactly as received
import { route } from "@/lib/http/route.ts";
import { DELIVERY_TRUNCATED_HEADER, rowIdSchema } from "@/lib/calls/schemas.ts";
import { getDeliveryBody } from "@/lib/calls/service.ts";
import { parseSearchParams } from "@/lib/threads/query-params.ts";
import { z } from "zod";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ id: rowIdSchema, deliveryId: rowIdSchema });

export const GET = route(async (_request, context: { params: Promise<{ id: string; deliveryId: string }> }) => {
  const { id, deliveryId } = parseSearchParams(paramsSchema, await context.params);
  const body = await getDeliveryBody({ callRowId: id, deliveryId });
  // The bytes are untrusted: served as inert text, never sniffed, never rendered as a document.
  return new Response(Buffer.from(body.bytes), {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      [DELIVERY_TRUNCATED_HEADER]: body.truncated ? `kept the first ${body.bytes.length} of ${body.bodyBytes} bytes` : "no",
    },
  });
});
