// The client side of POST /api/import: sends a file as the body through the one client kit (an ApiError on failure).
import { ApiError, postJson } from "@/components/ui/fetch-json.ts";
import { importApiHref } from "@/components/replay/trace-hrefs.ts";
import { importResultSchema, type ImportFormat, type ImportResult } from "@/lib/traces/schemas.ts";

function contentTypeOf(fileName: string): string {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "application/x-ndjson";
  if (lower.endsWith(".json")) return "application/json";
  if (lower.endsWith(".sse")) return "text/event-stream";
  // Any other text: the format is detected from the content; text/plain is refused (any web page can send it).
  return "application/x-ndjson";
}

export async function uploadTranscript(input: {
  file: File;
  format: ImportFormat | null;
  groupId: string | null;
}): Promise<ImportResult> {
  const body = await postJson<unknown>(
    importApiHref({ format: input.format ?? undefined, groupId: input.groupId ?? undefined, name: input.file.name }),
    input.file,
    {
      contentType: contentTypeOf(input.file.name),
    },
  );
  const parsed = importResultSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(200, "bad_response", "The server answered with an unexpected body");
  return parsed.data;
}
