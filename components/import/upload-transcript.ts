// The client side of POST /api/import: sends a file as the body and reads the answer or the one error shape.
import { importApiHref } from "@/components/replay/trace-hrefs.ts";
import { importResultSchema, type ImportFormat, type ImportResult } from "@/lib/traces/schemas.ts";

export class ImportFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path: string | null,
  ) {
    super(message);
    this.name = "ImportFailure";
  }
}

function contentTypeOf(fileName: string): string {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "application/x-ndjson";
  if (lower.endsWith(".json")) return "application/json";
  if (lower.endsWith(".sse")) return "text/event-stream";
  return "text/plain";
}

function readError(body: unknown): { code: string; message: string; path: string | null } | null {
  if (typeof body !== "object" || body === null || !("error" in body)) return null;
  const error = body.error;
  if (typeof error !== "object" || error === null) return null;
  return {
    code: "code" in error && typeof error.code === "string" ? error.code : "error",
    message: "message" in error && typeof error.message === "string" ? error.message : "Import failed",
    path: "path" in error && typeof error.path === "string" ? error.path : null,
  };
}

export async function uploadTranscript(input: { file: File; format: ImportFormat | null; groupId: string | null }): Promise<ImportResult> {
  const response = await fetch(importApiHref({ format: input.format ?? undefined, groupId: input.groupId ?? undefined, name: input.file.name }), {
    method: "POST",
    headers: { "content-type": contentTypeOf(input.file.name), accept: "application/json" },
    body: input.file,
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = readError(body);
    throw new ImportFailure(response.status, error?.code ?? "http_error", error?.message ?? `HTTP ${response.status}`, error?.path ?? null);
  }
  const parsed = importResultSchema.safeParse(body);
  if (!parsed.success) throw new ImportFailure(response.status, "bad_response", "The server answered with an unexpected body", null);
  return parsed.data;
}
