// GET /api/calls/{id} – a call with its newest results analysed and its deliveries; ?view=call for the call alone
import { json, route } from "@/lib/http/route.ts";
import { callQuerySchema, rowIdSchema } from "@/lib/calls/schemas.ts";
import { getCallDetail, getCallInfo } from "@/lib/calls/service.ts";
import { parseSearchParams } from "@/lib/threads/query-params.ts";
import { z } from "zod";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ id: rowIdSchema });

export const GET = route(async (request, context: { params: Promise<{ id: string }> }) => {
  const { id } = parseSearchParams(paramsSchema, await context.params);
  const { view } = parseSearchParams(callQuerySchema, new URL(request.url).searchParams);
  return json(view === "call" ? await getCallInfo({ callRowId: id }) : await getCallDetail({ callRowId: id }));
});
