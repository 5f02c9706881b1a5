// Turns a thread's stored timeline (Event rows with their calls and results) back into canonical events, so
// replay renders live and imported threads alike. Pure: the repository reads the rows, this maps them.
import type { CanonicalEvent, ContentBlock, ErrorSignal, FormatName, ToolDeclaration } from "../formats/canonical.ts";
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";
import { CANONICAL_DATA_SOURCES, FORK_EVENT, IMPORT_EVENT } from "./event-kinds.ts";
import { MODEL_TURN_EVENT } from "../model-turns/schemas.ts";
import type { EventRow, TimelineCall, TimelineResult } from "./repository/timeline-reads.ts";

export type TimelineRows = {
  events: readonly EventRow[];
  /**
   * The position of events[0] among all the thread's rows (0: the rows start the thread). A window of rows
   * read on its own (the replay step view) keeps the paths `timeline[position]` of the whole thread; its
   * events' `step` (turn number) counts from the window's start, which no view shows.
   */
  firstPosition?: number;
  calls: readonly TimelineCall[];
  results: readonly TimelineResult[];
};

export type CanonicalTimeline = {
  events: CanonicalEvent[];
  declarations: ToolDeclaration[];
  /** The vendor format of an imported thread (a fork's: its target's); null for live threads. */
  format: FormatName | null;
  /**
   * The encoding the events' raw items and the declarations are in, for renderers (RenderOptions.sourceFormat):
   * an import's format; a fork's history format (its own rows are read generically in any encoding).
   */
  sourceFormat: FormatName | null;
  /** Rows that are not part of what a model sees (import bookkeeping, timeouts, cancellations), by kind. */
  omitted: Record<string, number>;
};

const FORMATS: readonly FormatName[] = [
  "anthropic",
  "openai-chat",
  "openai-responses",
  "gemini",
  "gemini-interactions",
  "mcp",
  "agent-stream",
];
const ERROR_SIGNALS: readonly ErrorSignal[] = ["vendor-flag", "error-prefix", "error-key"];

function isFormatName(value: unknown): value is FormatName {
  return FORMATS.some((name) => name === value);
}

function isErrorSignal(value: unknown): value is ErrorSignal {
  return ERROR_SIGNALS.some((signal) => signal === value);
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stringField(data: JsonRecord, key: string): string | undefined {
  const value = data[key];
  return typeof value === "string" ? value : undefined;
}

function contentField(data: JsonRecord): ContentBlock[] | undefined {
  // Written by build-import from the adapter's own blocks; only an array is trusted to be one.
  const value = data.content;
  return Array.isArray(value)
    ? value.filter((block): block is ContentBlock => isRecord(block) && typeof block.type === "string")
    : undefined;
}

function declarationsFrom(value: unknown): ToolDeclaration[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): ToolDeclaration[] => {
    if (!isRecord(item) || typeof item.name !== "string") return [];
    const declaration: ToolDeclaration = { name: item.name, raw: item.raw ?? item };
    if (typeof item.title === "string") declaration.title = item.title;
    if (typeof item.description === "string") declaration.description = item.description;
    if (item.inputSchema !== undefined) declaration.inputSchema = item.inputSchema;
    if (item.outputSchema !== undefined) declaration.outputSchema = item.outputSchema;
    if (item.annotations !== undefined) declaration.annotations = item.annotations;
    return [declaration];
  });
}

/**
 * Step rule of lib/formats (trace-builder): model output (assistant text, reasoning, calls) opens a turn, the
 * next input (user/system message, result) closes it. Rows that carry a step (imports, runtimes that send
 * one) keep it; the rest get the rule's step.
 */
class StepCounter {
  private step = 0;
  private open = false;
  modelSide(): number {
    this.open = true;
    return this.step;
  }
  current(): number {
    return this.step;
  }
  inputSide(): number {
    if (this.open) {
      this.open = false;
      this.step += 1;
    }
    return this.step;
  }
}

// eslint-disable-next-line max-lines-per-function -- one switch over row kinds, a few lines each, sharing the per-row context (data, raw, path, the step counter); split, that context would travel through every helper
export function toCanonicalTimeline(rows: TimelineRows): CanonicalTimeline {
  const calls = new Map(rows.calls.map((call) => [call.id, call]));
  const results = new Map(rows.results.map((result) => [result.id, result]));
  const events: CanonicalEvent[] = [];
  const omitted: Record<string, number> = {};
  const steps = new StepCounter();
  let importedDeclarations: ToolDeclaration[] | null = null;
  let format: FormatName | null = null;
  let sourceFormat: FormatName | null = null;
  const omit = (kind: string) => {
    omitted[kind] = (omitted[kind] ?? 0) + 1;
  };

  // eslint-disable-next-line max-lines-per-function -- the switch above: one case per row kind
  rows.events.forEach((row, position) => {
    // Imports and forks keep canonical fields in dataJson; live rows have them in their columns only.
    const imported = CANONICAL_DATA_SOURCES.has(row.source);
    const parsedData = imported ? parseJson(row.dataJson) : undefined;
    const data: JsonRecord = isRecord(parsedData) ? parsedData : {};
    const raw = parseJson(row.rawJson) ?? null;
    const path = stringField(data, "path") ?? `timeline[${(rows.firstPosition ?? 0) + position}]`;

    switch (row.kind) {
      // A model turn's metadata (model, usage, stop reason) is about the response, not history sent to a model.
      case MODEL_TURN_EVENT:
        return;
      case IMPORT_EVENT:
      case FORK_EVENT: {
        const metadata = parseJson(row.dataJson);
        if (isRecord(metadata)) {
          importedDeclarations = declarationsFrom(metadata.declarations);
          if (isFormatName(metadata.format)) format = metadata.format;
          sourceFormat =
            "historyFormat" in metadata
              ? isFormatName(metadata.historyFormat)
                ? metadata.historyFormat
                : null
              : format;
        }
        omit(row.kind);
        return;
      }
      case "message":
      case "output_text": {
        const role =
          row.kind === "output_text"
            ? "assistant"
            : row.role === "system" || row.role === "user"
              ? row.role
              : "assistant";
        const step = role === "assistant" ? steps.modelSide() : steps.inputSide();
        const event: CanonicalEvent = {
          kind: "message",
          step: row.step ?? step,
          role,
          text: row.text ?? "",
          raw,
          path,
        };
        const content = contentField(data);
        if (content !== undefined) event.content = content;
        events.push(event);
        return;
      }
      case "reasoning": {
        const step = steps.modelSide();
        const event: CanonicalEvent = { kind: "reasoning", step: row.step ?? step, text: row.text ?? "", raw, path };
        if (data.redacted === true) event.redacted = true;
        events.push(event);
        return;
      }
      case "tool_call": {
        const call = row.toolCallId === null ? undefined : calls.get(row.toolCallId);
        if (call === undefined) {
          omit("tool_call without a call");
          return;
        }
        const step = steps.modelSide();
        const input = data.input === "text" ? "text" : "json";
        const event: CanonicalEvent = {
          kind: "tool_call",
          step: row.step ?? call.step ?? step,
          callId: stringField(data, "callId") ?? call.callKey,
          syntheticId: data.syntheticId === true,
          name: call.toolName,
          input,
          argumentsText: call.argumentsText ?? "",
          raw,
          path,
        };
        const itemId = stringField(data, "itemId");
        if (itemId !== undefined) event.itemId = itemId;
        const argumentsError = imported ? stringField(data, "argumentsError") : (call.argumentsError ?? undefined);
        if (input === "json" && call.argumentsJson !== null && argumentsError === undefined)
          event.arguments = parseJson(call.argumentsJson);
        if (argumentsError !== undefined) event.argumentsError = argumentsError;
        events.push(event);
        return;
      }
      case "tool_result": {
        const call = row.toolCallId === null ? undefined : calls.get(row.toolCallId);
        const result = row.resultId === null ? undefined : results.get(row.resultId);
        const callId = stringField(data, "callId") ?? call?.callKey;
        if (callId === undefined) {
          omit("tool_result without a call");
          return;
        }
        const step = steps.inputSide();
        const event: CanonicalEvent = {
          kind: "tool_result",
          step: row.step ?? step,
          callId,
          // An imported result keeps the vendor's text where the stored text differs (MCP stores the CallToolResult).
          text: stringField(data, "text") ?? result?.text ?? row.text ?? "",
          isError: typeof data.isError === "boolean" ? data.isError : (result?.isError ?? false),
          raw,
          path,
        };
        const name = stringField(data, "name");
        if (name !== undefined) event.name = name;
        if (isErrorSignal(data.errorSignal)) event.errorSignal = data.errorSignal;
        const content = contentField(data);
        if (content !== undefined) event.content = content;
        if (data.structuredContent !== undefined) event.structuredContent = data.structuredContent;
        events.push(event);
        return;
      }
      case "error": {
        const call = row.toolCallId === null ? undefined : calls.get(row.toolCallId);
        const layer = data.layer === "protocol" || parsedLayer(row.dataJson) === "protocol" ? "protocol" : "runtime";
        const event: CanonicalEvent = {
          kind: "error",
          step: row.step ?? steps.current(),
          layer,
          message: row.text ?? "",
          raw,
          path,
        };
        const callId = stringField(data, "callId") ?? call?.callKey;
        if (callId !== undefined) event.callId = callId;
        events.push(event);
        return;
      }
      case "oauth": {
        // The callback protocol's oauth message (live threads): the call asked for the user's authorization.
        const callId = row.toolCallId === null ? undefined : calls.get(row.toolCallId)?.callKey;
        const event: CanonicalEvent = {
          kind: "protocol",
          step: row.step ?? steps.current(),
          method: "oauth",
          text: row.text ?? "",
          raw,
          path,
        };
        if (callId !== undefined) event.callId = callId;
        events.push(event);
        return;
      }
      case "protocol": {
        const event: CanonicalEvent = {
          kind: "protocol",
          step: row.step ?? steps.current(),
          method: stringField(data, "method") ?? "unknown",
          text: row.text ?? "",
          raw,
          path,
        };
        if (data.direction === "client->server" || data.direction === "server->client")
          event.direction = data.direction;
        const callId =
          stringField(data, "callId") ?? (row.toolCallId === null ? undefined : calls.get(row.toolCallId)?.callKey);
        if (callId !== undefined) event.callId = callId;
        events.push(event);
        return;
      }
      default:
        omit(row.kind);
    }
  });

  return {
    events,
    declarations: importedDeclarations ?? declarationsOfCalls(rows.calls),
    format,
    sourceFormat,
    omitted,
  };
}

// Live error events store {layer} in dataJson too; they are not imports, so `data` above is empty for them.
function parsedLayer(dataJson: string | null): unknown {
  const data = parseJson(dataJson);
  return isRecord(data) ? data.layer : undefined;
}

/**
 * A live thread's declarations: the one each tool was registered with (the first call's), in call order. Calls
 * in id order; a subset holding, per tool, every declaring call up to its first valid one gives the same answer.
 */
export function declarationsOfCalls(calls: readonly TimelineCall[]): ToolDeclaration[] {
  const seen = new Map<string, ToolDeclaration>();
  for (const call of calls) {
    if (seen.has(call.toolName) || call.declarationJson === null) continue;
    const [declaration] = declarationsFrom([parseJson(call.declarationJson)]);
    if (declaration !== undefined && declaration.name === call.toolName)
      seen.set(call.toolName, { ...declaration, raw: parseJson(call.declarationJson) });
  }
  return [...seen.values()];
}
