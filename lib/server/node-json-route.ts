// Serves a JSON POST route on the lean server path (no Next router): content type, streamed size limit,
// parse, then the service; every failure answers with the one JSON error shape.
import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "../config.ts";
import { AppError, toAppError } from "../http/app-error.ts";
import { sendJson } from "../http/node-json.ts";
import { isJsonContentType, parseJsonBody } from "../ingest/raw-delivery.ts";
import { readNodeBody } from "../ingest/read-body.ts";

export async function serveJsonPost(req: IncomingMessage, res: ServerResponse, handle: (body: unknown) => Promise<{ status: number; body: unknown }>): Promise<void> {
  try {
    const contentType = req.headers["content-type"] ?? null;
    if (!isJsonContentType(contentType)) {
      throw new AppError("unsupported_media_type", `Content-Type must be application/json, got ${contentType ? `"${contentType}"` : "none"}`);
    }
    const limit = config().maxBodyBytes;
    const read = await readNodeBody(req, limit);
    if (read.tooLarge) {
      const error = new AppError("too_large", `Body exceeds the ${limit}-byte limit (TOOLSCOPE_MAX_BODY_BYTES)`);
      res.once("finish", () => req.destroy());
      return sendJson(res, error.status, error.toBody(), { connection: "close" });
    }
    const parsed = parseJsonBody(read.body);
    if (!parsed.ok) throw parsed.error;
    const reply = await handle(parsed.value);
    sendJson(res, reply.status, reply.body);
  } catch (error) {
    const appError = toAppError(error);
    if (!(error instanceof AppError)) console.error("[toolscope] route failed", error);
    if (!res.headersSent) sendJson(res, appError.status, appError.toBody());
    else res.destroy();
  }
}
