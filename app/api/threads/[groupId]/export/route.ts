// GET /api/threads/{group_id}/export – the thread as lossless Toolscope JSONL, streamed as a download
import { route } from "@/lib/http/route.ts";
import { exportDownloadHeaders, linesToStream } from "@/lib/traces/export-download.ts";
import { openThreadExport } from "@/lib/traces/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (_request, context: { params: Promise<{ groupId: string }> }) => {
  const { groupId } = await context.params;
  const exported = await openThreadExport({ groupId });
  return new Response(linesToStream(exported.lines), { headers: exportDownloadHeaders(exported.groupId) });
});
