// A model's answer (the vendor's own response shape) as the fork's next timeline rows: read by the same
// lib/formats adapter an import uses, so the answer replays exactly like a recorded turn (raw payloads kept for
// signatures), with call ids made unique within the fork. Pure.
import type { CanonicalEvent, ToolDeclaration } from "../formats/canonical.ts";
import { parseTranscript } from "../formats/detect.ts";
import { FormatError } from "../formats/format-error.ts";
import { describeArguments } from "../events/service.ts";
import { ID_MAX, identifierProblem } from "../ingest/schemas.ts";
import { sha256Hex } from "../results/hash.ts";
import { storableText } from "../results/text-codec.ts";
import type { ModelApi } from "../models/schemas.ts";
import type { AnswerEventRow } from "./answers-repository.ts";

/**
 * The most timeline rows one model answer may add (its messages, reasoning, tool calls and issues). A real turn
 * has a handful; the rows are written in one transaction, and a provider answering with tens of thousands of calls
 * held the database's write lock for as long as they took (SQLite: every other writer refused meanwhile).
 */
export const MAX_ANSWER_ROWS = 1000;

export type AnswerRows = {
  rows: AnswerEventRow[];
  toolCalls: number;
  issues: { path: string; message: string; raw?: unknown }[];
};

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function nullableText(text: string | null | undefined): string | null {
  return text == null ? null : storableText(text);
}

/**
 * The id a call gets in the fork. Gemini may send no ids: the adapter's synthetic `name#n` then counts from the
 * fork's earlier calls, as it would across a whole transcript. An id the fork already holds (local servers
 * often restart at call_0 each turn) gets the turn appended, in characters every API accepts.
 */
function uniqueCallKey(
  event: Extract<CanonicalEvent, { kind: "tool_call" }>,
  taken: Set<string>,
  position: number,
  turn: number,
): string {
  const base = event.syntheticId ? `${event.name}#${position}` : event.callId;
  let key = base;
  for (let n = 1; taken.has(key); n += 1) key = n === 1 ? `${base}_t${turn}` : `${base}_t${turn}_${n}`;
  taken.add(key);
  return key;
}

/**
 * A call's id and tool name become identifiers of the fork (the callback protocol answers by id), held to what
 * every way in takes (identifierProblem): at most ID_MAX characters and twice as many UTF-8 bytes, no NUL,
 * well-formed UTF-16. A model that sends another cannot have its answer stored as is (PostgreSQL refuses NUL
 * and index entries past 2,704 bytes).
 */
function checkIdentifiers(event: Extract<CanonicalEvent, { kind: "tool_call" }>): void {
  for (const [what, value] of [
    ["id", event.syntheticId ? null : event.callId],
    ["name", event.name],
  ] as const) {
    if (value === null) continue;
    const problem = identifierProblem(value, ID_MAX);
    if (problem !== null)
      throw new FormatError(
        event.path,
        `the tool call's ${what} ${problem.startsWith("contains") ? problem : `is ${problem}`}`,
      );
  }
}

export function answerRows(options: {
  api: ModelApi;
  response: unknown;
  turn: number;
  step: number;
  /** Call keys already in the fork's thread. */
  takenCallKeys: ReadonlySet<string>;
  declarations: readonly ToolDeclaration[];
}): AnswerRows {
  const trace = parseTranscript(options.response, options.api);
  const declarations = new Map(options.declarations.map((declaration) => [declaration.name, declaration]));
  const taken = new Set(options.takenCallKeys);
  const rows: AnswerEventRow[] = [];
  const issues = [...trace.issues];
  let toolCalls = 0;
  for (const event of trace.events) {
    const common = { step: options.step, rawJson: json(event.raw) };
    switch (event.kind) {
      case "message":
        if (event.role !== "assistant") {
          issues.push({
            path: event.path,
            message: `a ${event.role} message in a model's answer is not kept`,
            raw: event.raw,
          });
          break;
        }
        rows.push({
          ...common,
          kind: "message",
          role: "assistant",
          text: event.text,
          dataJson: JSON.stringify({ path: event.path, content: event.content, turn: options.turn }),
        });
        break;
      case "reasoning":
        rows.push({
          ...common,
          kind: "reasoning",
          role: "assistant",
          text: event.text,
          dataJson: JSON.stringify({ path: event.path, redacted: event.redacted, turn: options.turn }),
        });
        break;
      case "tool_call": {
        checkIdentifiers(event);
        const callKey = uniqueCallKey(event, taken, options.takenCallKeys.size + toolCalls, options.turn);
        toolCalls += 1;
        const declaration = declarations.get(event.name);
        const described = event.input === "text" ? { json: null, error: null } : describeArguments(event.argumentsText);
        const data = {
          path: event.path,
          callId: callKey,
          vendorCallId: callKey === event.callId || event.syntheticId ? undefined : event.callId,
          itemId: event.itemId,
          // Gemini calls without ids stay id-less on replay, so Gemini pairs results by position as it does.
          syntheticId: event.syntheticId,
          input: event.input,
          argumentsError: event.argumentsError ?? described.error ?? undefined,
          turn: options.turn,
        };
        const { raw: _raw, ...shape } = declaration ?? { raw: null };
        rows.push({
          ...common,
          kind: "tool_call",
          role: null,
          text: null,
          dataJson: JSON.stringify(data),
          call: {
            callKey,
            toolName: event.name,
            argumentsText: event.argumentsText,
            argumentsJson: described.json,
            // A parser's message quotes the arguments, NUL included.
            argumentsError: nullableText(event.argumentsError ?? described.error),
            declarationJson: declaration === undefined ? null : JSON.stringify(shape),
            outputSchemaJson: json(declaration?.outputSchema),
            vendor: options.api,
            registrationSha256: sha256Hex(JSON.stringify([options.api, callKey, event.name, event.argumentsText])),
          },
        });
        break;
      }
      default:
        issues.push({ path: event.path, message: `a ${event.kind} in a model's answer is not kept`, raw: event.raw });
    }
  }
  // What the adapter could not map stays visible on the timeline, as an import's issues do.
  for (const issue of issues) {
    rows.push({
      kind: "import_issue",
      step: options.step,
      role: null,
      text: issue.message,
      dataJson: JSON.stringify({ path: issue.path, message: issue.message }),
      rawJson: json(issue.raw),
    });
  }
  if (rows.length > MAX_ANSWER_ROWS) {
    throw new FormatError(
      "",
      `the answer holds ${rows.length} events (${toolCalls} tool calls); one model turn keeps at most ${MAX_ANSWER_ROWS}`,
    );
  }
  return { rows, toolCalls, issues };
}
