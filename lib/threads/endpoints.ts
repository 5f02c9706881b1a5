// Threads over HTTP:
// GET /api/threads – one page of threads by last activity, filtered and searched, with a keyset cursor
// GET /api/threads/{groupId}/timeline?after=<eventId>&limit=… – the thread's events after an id, with call state
// GET /api/threads/{groupId}/timeline?before=|around=&q=&only= – a window before / around an event, optionally filtered
// GET /api/threads/{groupId}/locate?target=&direction=&from= | step= | call= – the event a window should centre on
// GET /api/threads/{groupId}/summary – the header's counts (polled: they update live)
// GET /api/threads/{groupId}/events/{eventId}/text – the whole text of one timeline event ("show more")
import "server-only";
import { z } from "zod";
import { endpoint } from "../api/endpoint.ts";
import { parseQuery, rowIdSchema } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import { AppError } from "../http/app-error.ts";
import { locateQuerySchema, threadListQuerySchema, timelineQuerySchema } from "./schemas.ts";
import { getEventText, getThreadSummary, getTimelinePage, listThreads, locateInThread } from "./service.ts";

export const listThreadsEndpoint = endpoint({
  name: "GET /api/threads",
  access: "read",
  async handle(request) {
    return jsonReply(200, await listThreads({ query: parseQuery(threadListQuerySchema, request.url.searchParams) }));
  },
});

export const timelineEndpoint = endpoint<{ groupId: string }>({
  name: "GET /api/threads/{groupId}/timeline",
  access: "read",
  async handle(request, params) {
    const query = parseQuery(timelineQuerySchema, request.url.searchParams);
    return jsonReply(200, await getTimelinePage({ groupId: params.groupId, ...query }));
  },
});

export const locateEndpoint = endpoint<{ groupId: string }>({
  name: "GET /api/threads/{groupId}/locate",
  access: "read",
  async handle(request, params) {
    const query = parseQuery(locateQuerySchema, request.url.searchParams);
    return jsonReply(200, await locateInThread({ groupId: params.groupId, query }));
  },
});

export const summaryEndpoint = endpoint<{ groupId: string }>({
  name: "GET /api/threads/{groupId}/summary",
  access: "read",
  async handle(_request, params) {
    const summary = await getThreadSummary({ groupId: params.groupId });
    if (!summary) throw new AppError("not_found", `No thread "${params.groupId}"`);
    return jsonReply(200, summary);
  },
});

export const eventTextEndpoint = endpoint<{ groupId: string; eventId: string }>({
  name: "GET /api/threads/{groupId}/events/{eventId}/text",
  access: "read",
  async handle(_request, params) {
    const { eventId } = parseQuery(z.object({ eventId: rowIdSchema }), { eventId: params.eventId });
    return jsonReply(200, await getEventText({ groupId: params.groupId, eventId }));
  },
});
