// Forks over HTTP. Making a fork and driving its loop spend money on model calls: admin. Reading is read.
// POST /api/threads/{groupId}/forks – fork the thread at a step with edits and send it to a model target (201 after the first turn; 202 with wait=false)
// GET  /api/threads/{groupId}/forks – the forks made from a thread
// GET  /api/threads/{groupId}/fork – a fork's state: turns (streamed output, usage, errors), the model's calls and how each can be answered
// POST /api/threads/{groupId}/fork/continue – send the next turn
// POST /api/threads/{groupId}/fork/stop – stop the running turn
// POST /api/threads/{groupId}/fork/calls/{callId}/answer – answer a call from the recording or by hand
// GET  /api/models – the configured model targets (never their keys)
import "server-only";
import type { z } from "zod";
import { endpoint } from "../api/endpoint.ts";
import { AppError } from "../http/app-error.ts";
import { readJsonBody } from "../http/body.ts";
import { closestIssue, formatIssuePath } from "../http/issue-path.ts";
import { jsonReply } from "../http/reply.ts";
import { answerCallSchema, continueForkSchema, createForkSchema } from "./schemas.ts";
import {
  answerForkCall,
  continueFork,
  createFork,
  getFork,
  listForks,
  listModelTargets,
  stopFork,
  type ForkReply,
} from "./service.ts";

type GroupParams = { groupId: string };

/** A JSON body through `schema`: 422 naming the field, like every other body Toolscope reads. */
function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const issue = first === undefined ? undefined : closestIssue(first);
  const path = issue ? formatIssuePath(issue.path) : "";
  throw new AppError("invalid", issue ? `${path || "body"}: ${issue.message}` : "Invalid body", {
    path: path || undefined,
  });
}

function forkReply(reply: ForkReply) {
  return jsonReply(reply.status, reply.body, { location: `/api/threads/${encodeURIComponent(reply.groupId)}/fork` });
}

export const createForkEndpoint = endpoint<GroupParams>({
  name: "POST /api/threads/{groupId}/forks",
  access: "admin",
  async handle(request, params) {
    const input = parseBody(createForkSchema, await readJsonBody(request));
    return forkReply(await createFork({ groupId: params.groupId, input }));
  },
});

export const listForksEndpoint = endpoint<GroupParams>({
  name: "GET /api/threads/{groupId}/forks",
  access: "read",
  async handle(_request, params) {
    return jsonReply(200, { forks: await listForks({ groupId: params.groupId }) });
  },
});

export const forkEndpoint = endpoint<GroupParams>({
  name: "GET /api/threads/{groupId}/fork",
  access: "read",
  async handle(_request, params) {
    return jsonReply(200, await getFork({ groupId: params.groupId }));
  },
});

export const continueForkEndpoint = endpoint<GroupParams>({
  name: "POST /api/threads/{groupId}/fork/continue",
  access: "admin",
  async handle(request, params) {
    // An empty body is fine: Continue has one option.
    const body = request.headers.get("content-type") === null ? {} : await readJsonBody(request);
    const input = parseBody(continueForkSchema, body);
    return forkReply(await continueFork({ groupId: params.groupId, wait: input.wait }));
  },
});

export const stopForkEndpoint = endpoint<GroupParams>({
  name: "POST /api/threads/{groupId}/fork/stop",
  access: "admin",
  async handle(_request, params) {
    return jsonReply(202, await stopFork({ groupId: params.groupId }));
  },
});

export const answerForkCallEndpoint = endpoint<GroupParams & { callId: string }>({
  name: "POST /api/threads/{groupId}/fork/calls/{callId}/answer",
  access: "admin",
  async handle(request, params) {
    const input = parseBody(answerCallSchema, await readJsonBody(request));
    return jsonReply(201, await answerForkCall({ groupId: params.groupId, callKey: params.callId, input }));
  },
});

export const modelsEndpoint = endpoint({
  name: "GET /api/models",
  access: "admin",
  async handle() {
    return jsonReply(200, listModelTargets());
  },
});
