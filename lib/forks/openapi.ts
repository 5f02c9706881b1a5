// The forks' part of the OpenAPI document (lib/openapi/document.ts): paths and the named schemas they use.
import type { z } from "zod";
import { modelTargetsReplySchema, modelTargetViewSchema } from "../models/schemas.ts";
import {
  answerCallSchema,
  continueForkSchema,
  createForkSchema,
  forkAnswerSchema,
  forkCallViewSchema,
  forkCreatedSchema,
  forkEditSchema,
  forkSummarySchema,
  forkViewSchema,
  turnViewSchema,
} from "./schemas.ts";

type Ref = (name: string) => { $ref: string };
type ErrorResponse = (description: string) => unknown;

export const FORK_SCHEMAS: Record<string, z.ZodType> = {
  CreateFork: createForkSchema,
  ForkCreated: forkCreatedSchema,
  ContinueFork: continueForkSchema,
  AnswerForkCall: answerCallSchema,
  ForkCallAnswered: forkAnswerSchema,
  Fork: forkViewSchema,
  ForkSummary: forkSummarySchema,
  ModelTargets: modelTargetsReplySchema,
};

/** Schemas with their own id that the ones above contain. */
export const FORK_NESTED_SCHEMAS: Record<string, z.ZodType> = {
  ForkEdit: forkEditSchema,
  ModelTurn: turnViewSchema,
  ForkCall: forkCallViewSchema,
  ModelTargetView: modelTargetViewSchema,
};

// eslint-disable-next-line max-lines-per-function -- one declarative table of the fork paths (data, not logic): read as the document it becomes
export function forkPaths(ref: Ref, errorResponse: ErrorResponse) {
  const groupId = { name: "group_id", in: "path", required: true, schema: { type: "string" } };
  const json = (schema: unknown) => ({ "application/json": { schema } });
  const notAFork = errorResponse("No such thread, or the thread is not a fork");
  return {
    "/api/threads/{group_id}/forks": {
      post: {
        operationId: "createFork",
        summary: "Fork a thread at step N with edits and run it against a model target (admin: spends money)",
        description:
          "Renders the original's first N replay events (edits applied) in the target's API encoding with the replay renderers, sends them, and records the model's answer in a new thread linked to the original. The model's tool calls become pending calls of the fork: answer them from the recording, by hand, or through POST /api/callback with the fork's group_id. Provider errors are stored verbatim on the turn (the fork is still created: 201 with turn.status failed).",
        parameters: [groupId],
        requestBody: { required: true, content: json(ref("CreateFork")) },
        responses: {
          "201": {
            description: "Forked; the first model turn is stored (completed or failed)",
            content: json(ref("ForkCreated")),
          },
          "202": {
            description: "wait=false: forked; the first turn runs on the server (poll GET …/fork)",
            content: json(ref("ForkCreated")),
          },
          "404": errorResponse("No such thread"),
          "409": errorResponse("group_id already taken"),
          "415": errorResponse("Content-Type is not application/json"),
          "422": errorResponse(
            "Bad body, unknown model target, an edit naming nothing in the first N events, or a call left without a result at step N (path says which)",
          ),
          "503": errorResponse("The target's key variable is unset, or TOOLSCOPE_MODELS cannot be read"),
        },
      },
      get: {
        operationId: "listForks",
        summary: "The forks made from a thread",
        parameters: [groupId],
        responses: {
          "200": {
            description: "Newest first",
            content: json({ type: "object", properties: { forks: { type: "array", items: ref("ForkSummary") } } }),
          },
          "404": errorResponse("No such thread"),
        },
      },
    },
    "/api/threads/{group_id}/fork": {
      get: {
        operationId: "getFork",
        summary:
          "A fork's state: turns with streamed output, usage and errors; the model's calls and how each can be answered",
        parameters: [groupId],
        responses: { "200": { description: "The fork", content: json(ref("Fork")) }, "404": notAFork },
      },
    },
    "/api/threads/{group_id}/fork/continue": {
      post: {
        operationId: "continueFork",
        summary: "Send the fork's next model turn (admin: spends money)",
        parameters: [groupId],
        requestBody: { required: false, content: json(ref("ContinueFork")) },
        responses: {
          "201": { description: "The turn is stored", content: json(ref("ForkCreated")) },
          "202": { description: "wait=false: the turn runs on the server", content: json(ref("ForkCreated")) },
          "404": notAFork,
          "409": errorResponse("Calls still pending, a turn running, the run finished or at its step limit"),
          "503": errorResponse("The target's key variable is unset"),
        },
      },
    },
    "/api/threads/{group_id}/fork/stop": {
      post: {
        operationId: "stopFork",
        summary: "Stop the running model turn",
        parameters: [groupId],
        responses: {
          "202": {
            description: "Stopping",
            content: json({
              type: "object",
              properties: { group_id: { type: "string" }, stopping: { type: "boolean" } },
            }),
          },
          "404": notAFork,
          "409": errorResponse("Nothing is running"),
        },
      },
    },
    "/api/threads/{group_id}/fork/calls/{call_id}/answer": {
      post: {
        operationId: "answerForkCall",
        summary:
          "Answer a pending call of a fork from the recording (same tool and arguments in the original) or by hand",
        parameters: [groupId, { name: "call_id", in: "path", required: true, schema: { type: "string" } }],
        requestBody: { required: true, content: json(ref("AnswerForkCall")) },
        responses: {
          "201": { description: "Stored as the call's result", content: json(ref("ForkCallAnswered")) },
          "404": errorResponse("Not a fork, or the fork's model asked for no such call"),
          "409": errorResponse("Already answered, or no recorded call matches"),
          "422": errorResponse("Bad body"),
        },
      },
    },
    "/api/models": {
      get: {
        operationId: "listModelTargets",
        summary:
          "The model targets of TOOLSCOPE_MODELS: names, APIs, base URLs, models and key variable names — never keys",
        responses: {
          "200": {
            description: "Targets, and why the configuration cannot be read if it cannot",
            content: json(ref("ModelTargets")),
          },
        },
      },
    },
  };
}
