// GET /api/threads/{groupId}/events/{eventId}/text – the whole text of one timeline event ("show more")
import { json, route } from "@/lib/http/route.ts";
import { rowIdSchema } from "@/lib/calls/schemas.ts";
import { parseSearchParams } from "@/lib/threads/query-params.ts";
import { getEventText } from "@/lib/threads/service.ts";
import { z } from "zod";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ eventId: rowIdSchema });

export const GET = route(async (_request, context: { params: Promise<{ groupId: string; eventId: string }> }) => {
  const params = await context.params;
  const { eventId } = parseSearchParams(paramsSchema, { eventId: params.eventId });
  return json(await getEventText({ groupId: params.groupId, eventId }));
});
