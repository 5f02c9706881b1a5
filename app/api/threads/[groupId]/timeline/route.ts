// GET /api/threads/{groupId}/timeline?after=<eventId>&limit=… – the thread's events after an id, with call state
import { json, route } from "@/lib/http/route.ts";
import { parseSearchParams } from "@/lib/threads/query-params.ts";
import { timelineQuerySchema } from "@/lib/threads/schemas.ts";
import { getTimelinePage } from "@/lib/threads/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (request, context: { params: Promise<{ groupId: string }> }) => {
  const { groupId } = await context.params;
  const query = parseSearchParams(timelineQuerySchema, new URL(request.url).searchParams);
  return json(await getTimelinePage({ groupId, after: query.after, limit: query.limit }));
});
