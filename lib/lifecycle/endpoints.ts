// GET /api/storage (read): database size, rows per table, oldest data, what retention removes next.
// POST /api/storage/prune (admin): {dry_run?, days?, max_bytes?} — remove it now (or only report, dry_run).
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { AppError } from "../http/app-error.ts";
import { isJsonContentType, parseJsonBody } from "../http/body.ts";
import { jsonReply } from "../http/reply.ts";
import { pruneRequestSchema } from "./schemas.ts";
import { prune } from "./service.ts";
import { storageReport } from "./storage.ts";

export const storageEndpoint = endpoint({
  name: "GET /api/storage",
  access: "read",
  async handle() {
    return jsonReply(200, await storageReport());
  },
});

export const pruneEndpoint = endpoint({
  name: "POST /api/storage/prune",
  access: "admin",
  async handle(request) {
    // JSON only: a cross-site form or no-cors fetch cannot send it without a preflight.
    if (!isJsonContentType(request.headers.get("content-type")))
      throw new AppError("unsupported_media_type", "Content-Type must be application/json");
    const read = await request.readBody(64 * 1024);
    if (read.tooLarge) throw new AppError("too_large", "A prune request is a small JSON object");
    const text = read.body.length === 0 ? Buffer.from("{}") : read.body;
    const parsed = parseJsonBody(text);
    if (!parsed.ok) throw parsed.error;
    const body = pruneRequestSchema.safeParse(parsed.value);
    if (!body.success) {
      const issue = body.error.issues[0];
      throw new AppError(
        "invalid",
        issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "invalid prune request",
        { path: issue?.path.join(".") || undefined },
      );
    }
    const report = await prune({
      dryRun: body.data.dry_run ?? false,
      days: body.data.days,
      maxBytes: body.data.max_bytes,
    });
    return jsonReply(200, report);
  },
});
