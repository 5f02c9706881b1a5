// POST /api/events – record the runtime's side of a trace: one event, or an array answered 207 per item
import { json, route } from "@/lib/http/route.ts";
import { readJson } from "@/lib/http/read-json.ts";
import { recordEvents } from "@/lib/events/service.ts";

export const dynamic = "force-dynamic";

export const POST = route(async (request) => {
  const reply = await recordEvents(await readJson(request));
  return json(reply.body, { status: reply.status });
});
