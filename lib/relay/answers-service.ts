// Answer as the tool: a person answers a pending call from the dashboard — by hand, with a recorded result of the
// same tool and arguments, or with an error. The answer goes through the callback's own pipeline (it becomes the
// call's result, audited, marked "answered by <who>") and, through the outbox, to the runtime exactly as a tool's
// result would: to the relay target named, else the one the thread's results came through.
import "server-only";
import { maskDto } from "../audit/mask.ts";
import { getDatabase } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { contentHash } from "../ingest/commit-batch.ts";
import type { CallbackMessage } from "../ingest/schemas.ts";
import { callbackWriter } from "../ingest/service.ts";
import { wakeOutbox } from "../outbox/service.ts";
import { newWebhookId } from "../outbox/sign.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { decodeStoredText } from "../results/text-codec.ts";
import { recordChange } from "../intercept/rules-repository.ts";
import { findCallForAnswer, findRecordedCalls, findThreadRelay } from "./answers-repository.ts";
import type { AnswerInput, AnswerReply, RecordedAnswer } from "./schemas.ts";
import { findRelayTarget } from "./targets.ts";

// The same comparison forks make (lib/forks/recording.ts, a higher layer): JSON by value, key order aside.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

function argumentsKey(argumentsJson: string | null, argumentsText: string | null): string {
  if (argumentsJson !== null) {
    try {
      return `json:${canonicalJson(JSON.parse(argumentsJson))}`;
    } catch {
      // the text, then
    }
  }
  return `text:${argumentsText ?? ""}`;
}

type Recorded = RecordedAnswer & { text: string; displayAs: unknown };

async function recordedAnswers(callRowId: number): Promise<Recorded[]> {
  const db = await getDatabase();
  const call = await findCallForAnswer(db.client, callRowId);
  if (!call) throw new AppError("not_found", `No call ${callRowId}`);
  const key = argumentsKey(call.argumentsJson, call.argumentsText);
  const candidates = await findRecordedCalls(db.client, { toolName: call.toolName, exceptCallId: call.id, limit: 500 });
  return candidates.flatMap((candidate) => {
    const result = candidate.results[0];
    if (!result || argumentsKey(candidate.argumentsJson, candidate.argumentsText) !== key) return [];
    const text = decodeStoredText(result.text, result.textEscaped);
    return [
      {
        resultId: result.id,
        callRowId: candidate.id,
        groupId: candidate.groupId,
        callKey: candidate.callKey,
        receivedAt: result.receivedAt.toISOString(),
        textHead: text.slice(0, 2000),
        textBytes: result.textBytes,
        text,
        displayAs: result.displayAsJson === null ? undefined : (JSON.parse(result.displayAsJson) as unknown),
      },
    ];
  });
}

/** GET /api/calls/{id}/recordings: results of the same tool and arguments, to answer with (masked). */
export async function listRecordedAnswers(callRowId: number): Promise<RecordedAnswer[]> {
  const found = await recordedAnswers(callRowId);
  return maskDto(found.map(({ text: _text, displayAs: _displayAs, ...rest }) => rest)).value;
}

/** POST /api/calls/{id}/answer. 409 when the call is not waiting for a result. */
export async function answerCall(options: { callRowId: number; input: AnswerInput; by: string }): Promise<AnswerReply> {
  const { input } = options;
  const db = await getDatabase();
  const call = await findCallForAnswer(db.client, options.callRowId);
  if (!call) throw new AppError("not_found", `No call ${options.callRowId}`);
  if (call.status !== "pending" && call.subscription !== "active")
    throw new AppError("conflict", `Call "${call.callKey}" is ${call.status}: only a pending call can be answered`);
  let text: string;
  let displayAs: unknown = input.display_as;
  if (input.from === "hand") {
    if (input.text === undefined)
      throw new AppError("invalid", "text: answering by hand needs the text", { path: "text" });
    text = input.text;
  } else if (input.from === "error") {
    text = `Error: ${input.error ?? "answered with an error from the dashboard"}`;
    displayAs = undefined;
  } else {
    const recorded = await recordedAnswers(call.id);
    const chosen = input.recording === undefined ? recorded[0] : recorded.find((r) => r.resultId === input.recording);
    if (!chosen)
      throw new AppError(
        "invalid",
        input.recording === undefined
          ? `recording: no recorded result of "${call.toolName}" with the same arguments`
          : `recording: result ${input.recording} is not a recorded result of this tool with the same arguments`,
        { path: "recording" },
      );
    text = chosen.text;
    displayAs = displayAs ?? chosen.displayAs;
  }
  const relayName = input.relay ?? (await findThreadRelay(db.client, call.groupId));
  const target = relayName === null ? null : findRelayTarget(relayName);
  const message: CallbackMessage = {
    type: "tool_result",
    group_id: call.groupId,
    id: call.callKey,
    call_id: call.callId,
    text,
    ...(displayAs === undefined ? {} : { display_as: displayAs as CallbackMessage["display_as"] }),
  };
  const body = Buffer.from(JSON.stringify(message), "utf8");
  const webhookId = newWebhookId();
  const reply = await callbackWriter().submit({
    kind: "routed",
    raw: {
      body,
      tooLarge: false,
      receivedBytes: body.length,
      contentType: "application/json",
      signature: { id: null, timestamp: null, signature: null },
      remoteAddress: null,
      receivedAt: new Date(),
      authenticated: true,
    },
    message,
    webhookId: null,
    analysis: analyzeResult({ text, displayAs: message.display_as }),
    contentSha256: contentHash(message),
    textSha256: sha256Hex(text),
    bodySha256: sha256Hex(body),
    answeredBy: options.by,
    relay: target
      ? {
          target: target.name,
          mode: "store-and-forward",
          webhookId,
          lease: null,
          kind: "answer",
          answeredBy: options.by,
        }
      : undefined,
  });
  if (reply.status !== 200 || reply.outcome === "duplicate") {
    const error = (reply.body as { error?: { message?: string } }).error;
    throw new AppError(
      reply.status === 503 ? "unavailable" : "conflict",
      error?.message ?? `The answer was not stored (${reply.outcome})`,
    );
  }
  if (reply.relay) wakeOutbox();
  // (a relayed answer's audit-log row is written with its outbox message, in the same transaction)
  else
    await recordChange(db.client, {
      actor: options.by,
      action: "answer",
      detail: { from: input.from, relay: null },
      at: new Date(),
      groupId: call.groupId,
      callKey: call.callKey,
      toolCallId: call.id,
    });
  const accepted = reply.body as { result_id: number };
  return {
    status: "answered",
    group_id: call.groupId,
    id: call.callKey,
    result_id: accepted.result_id,
    answered_by: options.by,
    relay: reply.relay
      ? {
          target: reply.relay.target,
          message_id: reply.relay.messageId,
          webhook_id: reply.relay.webhookId,
          state: reply.relay.state,
        }
      : null,
    not_delivered: target
      ? null
      : "No relay target is known for this thread (none of its results came through a relay, and none was named): the answer is recorded, not delivered.",
  };
}
