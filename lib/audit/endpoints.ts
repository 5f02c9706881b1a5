// Revealing a masked value and reading the access log over HTTP:
// POST /api/secrets/reveal – {fingerprint, scopes:[{kind:"call"|"thread"|"delivery", id}]} → the one value, recorded
// GET /api/access-log?limit=&target= – who revealed or read exact copies of what, newest first
import "server-only";
import type { z } from "zod";
import { endpoint } from "../api/endpoint.ts";
import { AppError } from "../http/app-error.ts";
import { readJsonBody } from "../http/body.ts";
import { formatIssuePath } from "../http/issue-path.ts";
import { parseQuery } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import { accessLogQuerySchema, revealRequestSchema } from "./schemas.ts";
import { listAccessRecords, revealSecret } from "./service.ts";

function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? formatIssuePath(issue.path) : "";
  throw new AppError("invalid", issue ? `${path || "body"}: ${issue.message}` : "Invalid body", {
    path: path || undefined,
  });
}

/** A read-scope request, but a POST: it writes the access record, and a JSON body keeps it out of reach of forms. */
export const revealSecretEndpoint = endpoint({
  name: "POST /api/secrets/reveal",
  access: "read",
  async handle(request, _params, { principal }) {
    const input = parseBody(revealRequestSchema, await readJsonBody(request, { limit: 16 * 1024 }));
    return jsonReply(200, await revealSecret({ request: input, principal }));
  },
});

export const accessLogEndpoint = endpoint({
  name: "GET /api/access-log",
  access: "admin",
  async handle(request) {
    const query = parseQuery(accessLogQuerySchema, request.url.searchParams);
    return jsonReply(200, { items: await listAccessRecords({ limit: query.limit, target: query.target }) });
  },
});
