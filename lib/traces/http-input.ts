// Reads the traces routes' HTTP input: query strings through their zod schemas, and a transcript body
// (JSON, JSONL or plain text) with the size limit enforced while it streams in.
import type { z } from "zod";
import { config } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { formatIssuePath, isJsonContentType } from "../ingest/raw-delivery.ts";
import { readWebBody } from "../ingest/read-body.ts";

const TRANSCRIPT_MEDIA_TYPES = new Set(["application/x-ndjson", "application/jsonl", "application/jsonlines", "text/plain"]);

/** Parses URL search parameters (single values) with a zod object schema; 422 names the parameter. */
export function readQuery<Schema extends z.ZodType>(request: Request, schema: Schema): z.infer<Schema> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? formatIssuePath(issue.path) : "";
  throw new AppError("invalid", issue ? `${path || "query"}: ${issue.message}` : "Invalid query", { path: path || undefined });
}

/** The request body as text: JSON (application/json, +json), JSONL (application/x-ndjson, jsonl) or text/plain, UTF-8. */
export async function readTranscriptBody(request: Request): Promise<string> {
  const contentType = request.headers.get("content-type");
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!isJsonContentType(contentType) && !TRANSCRIPT_MEDIA_TYPES.has(mediaType)) {
    throw new AppError(
      "unsupported_media_type",
      `Content-Type must be application/json, application/x-ndjson or text/plain, got ${contentType ? `"${contentType}"` : "none"}`,
    );
  }
  const limit = config().maxBodyBytes;
  const read = await readWebBody(request, limit);
  if (read.tooLarge) {
    throw new AppError("too_large", `Body exceeds the ${limit}-byte limit (TOOLSCOPE_MAX_BODY_BYTES); import larger files with \`npm run toolscope -- import <file>\``);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(read.body);
  } catch {
    throw new AppError("invalid", "Body is not valid UTF-8");
  }
}
