// POST /api/import – import a vendor transcript or a Toolscope JSONL export as one thread (201; 200 when already imported)
import { json, route } from "@/lib/http/route.ts";
import { readQuery, readTranscriptBody } from "@/lib/traces/http-input.ts";
import { importQuerySchema } from "@/lib/traces/schemas.ts";
import { importTranscript } from "@/lib/traces/service.ts";

export const dynamic = "force-dynamic";

export const POST = route(async (request) => {
  const query = readQuery(request, importQuerySchema);
  const text = await readTranscriptBody(request);
  const reply = await importTranscript({ text, format: query.format, groupId: query.group_id, name: query.name ?? null });
  return json(reply.body, { status: reply.status });
});
