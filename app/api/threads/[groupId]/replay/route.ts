// GET /api/threads/{group_id}/replay?vendor=&step= – the vendor request body (message history) at step N
import { json, route } from "@/lib/http/route.ts";
import { readQuery } from "@/lib/traces/http-input.ts";
import { replayQuerySchema } from "@/lib/traces/schemas.ts";
import { renderThreadHistory } from "@/lib/traces/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (request, context: { params: Promise<{ groupId: string }> }) => {
  const { groupId } = await context.params;
  const query = readQuery(request, replayQuerySchema);
  return json(await renderThreadHistory({ groupId, vendor: query.vendor, step: query.step }));
});
