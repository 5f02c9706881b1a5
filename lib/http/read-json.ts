// Reads a JSON request body for the Next routes: content type, size limit while streaming, parse.
import { config } from "../config.ts";
import { isJsonContentType, parseJsonBody } from "../ingest/raw-delivery.ts";
import { readWebBody } from "../ingest/read-body.ts";
import { AppError } from "./app-error.ts";

export async function readJson(request: Request): Promise<unknown> {
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType)) {
    throw new AppError("unsupported_media_type", `Content-Type must be application/json, got ${contentType ? `"${contentType}"` : "none"}`);
  }
  const limit = config().maxBodyBytes;
  const read = await readWebBody(request, limit);
  if (read.tooLarge) throw new AppError("too_large", `Body exceeds the ${limit}-byte limit (TOOLSCOPE_MAX_BODY_BYTES)`);
  const parsed = parseJsonBody(read.body);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}
