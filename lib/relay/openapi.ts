// The in-path part of the OpenAPI document (lib/openapi/document.ts): the relay route, breakpoints, faults, held
// results, answers, approvals and the outbox — paths and the named request schemas they use.
import type { z } from "zod";
import {
  breakpointInputSchema,
  breakpointPatchSchema,
  faultInputSchema,
  faultPatchSchema,
} from "../intercept/schemas.ts";
import {
  answerSchema,
  approvalDecisionSchema,
  approvalRequestSchema,
  approvalRuleSchema,
  holdDecisionSchema,
} from "./schemas.ts";

type Ref = (name: string) => { $ref: string };
type ErrorResponse = (description: string) => unknown;

export const IN_PATH_SCHEMAS: Record<string, z.ZodType> = {
  BreakpointInput: breakpointInputSchema,
  BreakpointPatch: breakpointPatchSchema,
  FaultInput: faultInputSchema,
  FaultPatch: faultPatchSchema,
  HoldDecision: holdDecisionSchema,
  AnswerCall: answerSchema,
  ApprovalRequest: approvalRequestSchema,
  ApprovalDecision: approvalDecisionSchema,
  ApprovalRule: approvalRuleSchema,
};

const object = { type: "object" };

// eslint-disable-next-line max-lines-per-function -- one declarative table of the in-path paths (data, not logic): read as the document it becomes
export function inPathPaths(ref: Ref, errorResponse: ErrorResponse) {
  const json = (schema: unknown) => ({ "application/json": { schema } });
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  const ok = (description: string) => ({ description, content: json(object) });
  const admin = "(admin)";
  const notFound = errorResponse("No such row");
  const bad = errorResponse("Invalid body: the error's path names the field");
  const rules = (kind: "breakpoint" | "fault", input: string, patch: string, what: string) => ({
    collection: {
      get: { operationId: `list${kind}s`, summary: `The ${kind} rules (read)`, responses: { "200": ok("Rules") } },
      post: {
        operationId: `create${kind}`,
        summary: `Add a ${kind} rule ${admin}: ${what}`,
        requestBody: { required: true, content: json(ref(input)) },
        responses: { "201": ok("The rule"), "422": bad },
      },
    },
    one: {
      patch: {
        operationId: `change${kind}`,
        summary: `Change a ${kind} rule, e.g. turn it off ${admin}`,
        parameters: [id],
        requestBody: { required: true, content: json(ref(patch)) },
        responses: { "200": ok("The rule"), "404": notFound, "422": bad },
      },
      delete: {
        operationId: `delete${kind}`,
        summary: `Remove a ${kind} rule ${admin}`,
        parameters: [id],
        responses: { "200": ok("Removed"), "404": notFound },
      },
    },
  });
  const breakpoints = rules(
    "breakpoint",
    "BreakpointInput",
    "BreakpointPatch",
    "matching relayed results are held before they are forwarded",
  );
  const faults = rules(
    "fault",
    "FaultInput",
    "FaultPatch",
    "delay, duplicate, drop or turn into an error a fraction of relayed results (loudly marked on every affected call)",
  );
  return {
    "/api/relay/{name}": {
      post: {
        operationId: "relayToolResult",
        summary: "Deliver a tool result through Toolscope to the configured runtime `name` (TOOLSCOPE_RELAYS)",
        description:
          "The /api/callback pipeline (validation, Standard Webhooks signature, idempotency, audit), then the exact body bytes are forwarded to the target's configured URL, signed with the target's secret, with the same webhook-id on every attempt. store-and-forward: 200 once the result and its outbox message are stored; the outbox delivers (retries with backoff, in order per call). pass-through: the runtime's own status and body; 202 when the result is held at a breakpoint, faulted, or queued behind an earlier result of the same call; 502/504 when the runtime does not answer (the result stays in the outbox).",
        parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
        requestBody: { required: true, content: json(ref("ToolResultMessage")) },
        responses: {
          "200": ok("Stored and queued (store-and-forward), or the runtime's answer (pass-through)"),
          "202": ok("pass-through: stored and queued, not yet delivered"),
          "404": errorResponse("No relay target of that name"),
          "503": errorResponse("TOOLSCOPE_RELAYS cannot be read (the message says why), or the database is busy"),
          "409": errorResponse("Different content for a completed call, or a call_id mismatch"),
          "422": bad,
          "502": errorResponse("pass-through: the runtime is unreachable; Toolscope keeps delivering"),
          "504": errorResponse("pass-through: the runtime did not answer in time; Toolscope keeps delivering"),
        },
      },
    },
    "/api/relays": {
      get: { operationId: "listRelays", summary: "The configured relay targets (read)", responses: { "200": ok("") } },
    },
    "/api/breakpoints": breakpoints.collection,
    "/api/breakpoints/{id}": breakpoints.one,
    "/api/faults": faults.collection,
    "/api/faults/{id}": faults.one,
    "/api/held": {
      get: {
        operationId: "listHeld",
        summary: "Held and recently decided results (read)",
        responses: { "200": ok("") },
      },
    },
    "/api/held/{id}": {
      get: {
        operationId: "getHeld",
        summary: "One held result with its original bytes (read)",
        parameters: [id],
        responses: { "200": ok("The hold"), "404": notFound },
      },
    },
    "/api/held/{id}/decision": {
      post: {
        operationId: "decideHeld",
        summary: `Release as is, edit (text, envelope fields, display segments), replace with an error, or drop ${admin}`,
        parameters: [id],
        requestBody: { required: true, content: json(ref("HoldDecision")) },
        responses: { "200": ok("Decided"), "404": notFound, "409": errorResponse("Already decided"), "422": bad },
      },
    },
    "/api/interventions": {
      get: {
        operationId: "listInterventions",
        summary: "The in-path audit log: every human or injected change, who and when (read)",
        responses: { "200": ok("") },
      },
    },
    "/api/calls/{id}/answer": {
      post: {
        operationId: "answerCall",
        summary: `Answer a pending call as the tool: by hand, from a recorded result, or with an error ${admin}`,
        parameters: [id],
        requestBody: { required: true, content: json(ref("AnswerCall")) },
        responses: {
          "200": ok("Answered, and queued to the runtime"),
          "404": notFound,
          "409": errorResponse("Only a pending call can be answered"),
          "422": bad,
        },
      },
    },
    "/api/approvals": {
      post: {
        operationId: "requestApproval",
        summary: "A runtime asks before running a tool (ingest)",
        requestBody: { required: true, content: json(ref("ApprovalRequest")) },
        responses: { "201": ok("{approval_id, status}"), "422": bad },
      },
      get: { operationId: "listApprovals", summary: "Approvals and rules (read)", responses: { "200": ok("") } },
    },
    "/api/approvals/{id}": {
      get: {
        operationId: "getApproval",
        summary: "The decision; ?wait=N long-polls up to N seconds (ingest)",
        parameters: [id, { name: "wait", in: "query", required: false, schema: { type: "number", maximum: 60 } }],
        responses: {
          "200": ok("{status: pending | approved | denied | expired, arguments?, reason?}"),
          "404": notFound,
        },
      },
    },
    "/api/approvals/{id}/decision": {
      post: {
        operationId: "decideApproval",
        summary: `Approve (optionally with edited arguments) or deny with a reason ${admin}`,
        parameters: [id],
        requestBody: { required: true, content: json(ref("ApprovalDecision")) },
        responses: { "200": ok("Decided"), "404": notFound, "409": errorResponse("Already decided or expired") },
      },
    },
    "/api/approval-rules": {
      post: {
        operationId: "createApprovalRule",
        summary: `Auto-approve a tool by name ${admin}`,
        requestBody: { required: true, content: json(ref("ApprovalRule")) },
        responses: { "201": ok("The rule"), "422": bad },
      },
    },
    "/api/approval-rules/{id}": {
      delete: {
        operationId: "deleteApprovalRule",
        summary: `Remove an auto-approve rule ${admin}`,
        parameters: [id],
        responses: { "200": ok("Removed"), "404": notFound },
      },
    },
    "/api/outbox": {
      get: {
        operationId: "listOutbox",
        summary: "Outgoing deliveries with their attempts, newest first (read)",
        responses: { "200": ok("") },
      },
    },
    "/api/outbox/{id}": {
      get: {
        operationId: "getOutboxMessage",
        summary: "One outgoing delivery: body and every attempt's status, latency and error (read)",
        parameters: [id],
        responses: { "200": ok(""), "404": notFound },
      },
    },
    "/api/outbox/{id}/retry": {
      post: {
        operationId: "retryOutboxMessage",
        summary: `Deliver a dead-lettered message again ${admin}`,
        parameters: [id],
        responses: { "200": ok("Queued"), "404": notFound, "409": errorResponse("Not dead-lettered") },
      },
    },
  };
}
