// Whole threads over HTTP:
// POST /api/import – a vendor transcript or a Toolscope JSONL export as one thread (201; 200 when already imported)
// GET /api/threads/{groupId}/export – the thread as lossless Toolscope JSONL, streamed as a download
// GET /api/threads/{groupId}/replay?vendor=&step=&part= – the vendor request body (message history) at step N
// GET /api/threads/{groupId}/replay/view?vendor=&step= – what the replay page shows at step N (cut, masked)
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { recordAccess } from "../audit/service.ts";
import { readTextBody } from "../http/body.ts";
import { parseQuery } from "../http/query.ts";
import { bytesReply, jsonReply, streamReply } from "../http/reply.ts";
import { stringifyRequest } from "../replay/render-history.ts";
import { chunkLines, exportDownloadHeaders } from "./export-download.ts";
import { importQuerySchema, replayQuerySchema, replayViewQuerySchema } from "./schemas.ts";
import { getReplayStep, importTranscript, openThreadExport, renderThreadHistory } from "./service.ts";

// JSON, JSONL and raw SSE captures of streamed responses. Not text/plain: a page on any origin can POST that
// without a preflight (issue 9), so a plain-text file is sent as application/x-ndjson (the format is detected
// from the content either way).
const TRANSCRIPT_MEDIA_TYPES = [
  "application/x-ndjson",
  "application/jsonl",
  "application/jsonlines",
  "text/event-stream",
];

export const importEndpoint = endpoint({
  name: "POST /api/import",
  access: "admin",
  async handle(request, _params, { principal }) {
    const query = parseQuery(importQuerySchema, request.url.searchParams);
    const text = await readTextBody(request, {
      accepted: TRANSCRIPT_MEDIA_TYPES,
      tooLargeHint: "; import larger files with `npm run toolscope -- import <file>`",
    });
    const reply = await importTranscript({
      text,
      format: query.format,
      groupId: query.group_id,
      name: query.name ?? null,
      principal,
    });
    return jsonReply(reply.status, reply.body);
  },
});

export const exportEndpoint = endpoint<{ groupId: string }>({
  name: "GET /api/threads/{groupId}/export",
  access: "read",
  async handle(_request, params, { principal }) {
    const exported = await openThreadExport({ groupId: params.groupId });
    await recordAccess({ principal, action: "export", target: `thread:${exported.groupId}` });
    return streamReply(chunkLines(exported.lines), exportDownloadHeaders(exported.groupId));
  },
});

export const replayEndpoint = endpoint<{ groupId: string }>({
  name: "GET /api/threads/{groupId}/replay",
  access: "read",
  async handle(request, params, { principal }) {
    const query = parseQuery(replayQuerySchema, request.url.searchParams);
    const result = await renderThreadHistory({ groupId: params.groupId, vendor: query.vendor, step: query.step });
    // The request holds the thread's texts exact (credentials unmasked), like an export: recorded like one.
    await recordAccess({
      principal,
      action: "raw",
      target: `thread:${result.group_id}`,
      detail: `replay ${result.vendor} step ${result.step}`,
    });
    // Written with every number's source digits (integers above 2^53 in arguments stay exact).
    const body = query.part === "request" ? stringifyRequest(result.request, 2) : stringifyRequest(result);
    return bytesReply(new TextEncoder().encode(body), { "content-type": "application/json; charset=utf-8" });
  },
});

export const replayViewEndpoint = endpoint<{ groupId: string }>({
  name: "GET /api/threads/{groupId}/replay/view",
  access: "read",
  async handle(request, params) {
    const query = parseQuery(replayViewQuerySchema, request.url.searchParams);
    return jsonReply(200, await getReplayStep({ groupId: params.groupId, vendor: query.vendor, step: query.step }));
  },
});
