// Approvals, answers and the outbox over HTTP.
// POST /api/approvals – a runtime asks before running a tool (ingest) → 201 {approval_id, status, …}
// GET  /api/approvals – pending and decided requests, the auto-approve rules (read)
// GET  /api/approvals/{id}?wait=30 – the state, long-polled until decided (ingest: the runtime that asked)
// POST /api/approvals/{id}/decision – approve (optionally with edited arguments) or deny with a reason (admin)
// POST /api/approval-rules · DELETE /api/approval-rules/{id} – tools approved at once (admin)
// POST /api/calls/{id}/answer – answer a pending call as the tool (admin) · GET /api/calls/{id}/recordings (read)
// GET  /api/outbox – outgoing deliveries (read) · GET /api/outbox/{id} · POST /api/outbox/{id}/retry (admin)
import "server-only";
import { z } from "zod";
import { describePrincipal } from "../access/principal.ts";
import { endpoint } from "../api/endpoint.ts";
import { maskDto } from "../audit/mask.ts";
import { readJsonBody } from "../http/body.ts";
import { parseQuery, rowIdSchema } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import { outboxQuerySchema } from "../outbox/schemas.ts";
import { getOutboxMessage, listOutbox, retryOutboxMessage } from "../outbox/service.ts";
import { answerCall, listRecordedAnswers } from "./answers-service.ts";
import { getCallInPath } from "./call-in-path-service.ts";
import {
  addApprovalRule,
  decideApproval,
  getApprovalsPage,
  getApprovalState,
  MAX_WAIT_SECONDS,
  removeApprovalRule,
  requestApproval,
} from "./approvals-service.ts";
import { parseBody } from "./parse-body.ts";
import { answerSchema, approvalDecisionSchema, approvalRequestSchema, approvalRuleSchema } from "./schemas.ts";

type IdParams = { id: string };
const idOf = (params: IdParams) => parseQuery(z.object({ id: rowIdSchema }), params).id;

export const requestApprovalEndpoint = endpoint({
  name: "POST /api/approvals",
  access: "ingest",
  async handle(request, _params, { principal }) {
    const input = parseBody(approvalRequestSchema, await readJsonBody(request));
    const state = await requestApproval({ request: input, by: describePrincipal(principal) });
    return jsonReply(201, state, { location: `/api/approvals/${state.approval_id}` });
  },
});

export const approvalsEndpoint = endpoint({
  name: "GET /api/approvals",
  access: "read",
  async handle(request) {
    const query = parseQuery(
      z.object({ group: z.string().min(1).max(512).optional(), id: z.string().min(1).max(512).optional() }),
      request.url.searchParams,
    );
    return jsonReply(200, await getApprovalsPage({ groupId: query.group, callKey: query.id }));
  },
});

export const approvalEndpoint = endpoint<IdParams>({
  name: "GET /api/approvals/{id}",
  access: "ingest",
  async handle(request, params) {
    const { wait } = parseQuery(
      z.object({ wait: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).optional() }),
      request.url.searchParams,
    );
    return jsonReply(200, await getApprovalState({ id: idOf(params), waitSeconds: wait ?? 0 }));
  },
});

export const decideApprovalEndpoint = endpoint<IdParams>({
  name: "POST /api/approvals/{id}/decision",
  access: "admin",
  async handle(request, params, { principal }) {
    const decision = parseBody(approvalDecisionSchema, await readJsonBody(request));
    return jsonReply(200, await decideApproval({ id: idOf(params), decision, by: describePrincipal(principal) }));
  },
});

export const createApprovalRuleEndpoint = endpoint({
  name: "POST /api/approval-rules",
  access: "admin",
  async handle(request, _params, { principal }) {
    const input = parseBody(approvalRuleSchema, await readJsonBody(request));
    return jsonReply(201, await addApprovalRule({ ...input, by: describePrincipal(principal) }));
  },
});

export const deleteApprovalRuleEndpoint = endpoint<IdParams>({
  name: "DELETE /api/approval-rules/{id}",
  access: "admin",
  async handle(_request, params) {
    await removeApprovalRule(idOf(params));
    return jsonReply(200, { deleted: true });
  },
});

export const answerCallEndpoint = endpoint<IdParams>({
  name: "POST /api/calls/{id}/answer",
  access: "admin",
  async handle(request, params, { principal }) {
    const input = parseBody(answerSchema, await readJsonBody(request));
    return jsonReply(200, await answerCall({ callRowId: idOf(params), input, by: describePrincipal(principal) }));
  },
});

export const recordingsEndpoint = endpoint<IdParams>({
  name: "GET /api/calls/{id}/recordings",
  access: "read",
  handle: async (_request, params) => jsonReply(200, { items: await listRecordedAnswers(idOf(params)) }),
});

export const outboxEndpoint = endpoint({
  name: "GET /api/outbox",
  access: "read",
  async handle(request) {
    const query = parseQuery(outboxQuerySchema, request.url.searchParams);
    return jsonReply(200, maskDto(await listOutbox(query)).value);
  },
});

export const outboxMessageEndpoint = endpoint<IdParams>({
  name: "GET /api/outbox/{id}",
  access: "read",
  handle: async (_request, params) => jsonReply(200, maskDto(await getOutboxMessage(idOf(params))).value),
});

export const retryOutboxEndpoint = endpoint<IdParams>({
  name: "POST /api/outbox/{id}/retry",
  access: "admin",
  async handle(_request, params, { principal }) {
    const message = await retryOutboxMessage({ id: idOf(params), by: describePrincipal(principal) });
    return jsonReply(200, maskDto(message).value);
  },
});

// GET /api/calls/{id}/in-path – the call's way to the runtime: outgoing messages and attempts, holds, approvals, changes
export const callInPathEndpoint = endpoint<IdParams>({
  name: "GET /api/calls/{id}/in-path",
  access: "read",
  handle: async (_request, params) => jsonReply(200, await getCallInPath(idOf(params))),
});
