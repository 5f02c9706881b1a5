// Turns a canonical trace (lib/formats) into the records of one Toolscope thread: the same records an export
// holds, so vendor imports and Toolscope imports share one writer and an imported transcript exports losslessly.
// Rows: build-import-rows.ts; calls and results: build-import-calls.ts.
import type {
  CanonicalEvent,
  CanonicalTrace,
  FormatName,
  ToolDeclaration,
  ToolResultEvent,
} from "../formats/canonical.ts";
import { CallLedger } from "./build-import-calls.ts";
import { eventRow, importEventRow, issueRows, json, type EventDraft } from "./build-import-rows.ts";
import type { EventRecord, ThreadExport } from "./export-format.ts";
import { withTurnRows } from "./build-import-turns.ts";

export type ImportCounts = { events: number; calls: number; results: number; issues: number };

export type ImportMetadata = {
  format: FormatName;
  name: string | null;
  inputSha256: string;
  counts: ImportCounts;
  declarations: ToolDeclaration[];
};

export type BuildImportOptions = {
  groupId: string;
  name: string | null;
  inputSha256: string;
  importedAt: Date;
};

export function buildImport(
  trace: CanonicalTrace,
  options: BuildImportOptions,
): { data: ThreadExport; metadata: ImportMetadata } {
  const at = options.importedAt.toISOString();
  const ledger = new CallLedger(trace.format, trace.declarations, at);
  const orphanIssues = new Map(
    trace.issues
      .filter((issue) => issue.message.startsWith("result for unknown call"))
      .map((issue) => [issue.path, issue.message]),
  );
  const timeline = trace.events.map((event) => timelineRow(event, ledger, orphanIssues, at));
  ledger.settle();

  const counts: ImportCounts = {
    events: trace.events.length,
    calls: ledger.calls.length,
    results: ledger.results.length,
    issues: trace.issues.length,
  };
  const metadata: ImportMetadata = {
    format: trace.format,
    name: options.name,
    inputSha256: options.inputSha256,
    counts,
    declarations: trace.declarations,
  };
  const events = [
    importEventRow(metadata, at),
    ...withTurnRows(timeline, trace.responses, at),
    ...issueRows(trace.issues, at),
  ].map((event, index): EventRecord => ({ ...event, index }));
  const data: ThreadExport = {
    groupId: options.groupId,
    thread: { kind: "thread", title: options.name, vendor: trace.format, created_at: at, last_activity_at: at },
    calls: ledger.calls,
    results: ledger.results,
    events,
    deliveries: [],
  };
  return { data, metadata };
}

/** One canonical event as its Event row, recording calls and results in the ledger on the way. */
function timelineRow(
  event: CanonicalEvent,
  ledger: CallLedger,
  orphanIssues: ReadonlyMap<string, string>,
  at: string,
): EventDraft {
  switch (event.kind) {
    case "message":
      return eventRow(
        event,
        {
          type: "message",
          role: event.role,
          text: event.text,
          data_json: json({ path: event.path, content: event.content }),
        },
        at,
      );
    case "reasoning":
      return eventRow(
        event,
        {
          type: "reasoning",
          role: "assistant",
          text: event.text,
          data_json: json({ path: event.path, redacted: event.redacted }),
        },
        at,
      );
    case "tool_call": {
      const record = ledger.addCall(event);
      const data = {
        path: event.path,
        callId: event.callId,
        itemId: event.itemId,
        syntheticId: event.syntheticId,
        input: event.input,
        argumentsError: event.argumentsError,
      };
      return eventRow(event, { type: "tool_call", call_key: record.call_key, data_json: json(data) }, at);
    }
    case "tool_result":
      return resultRow(event, ledger, orphanIssues, at);
    case "error": {
      const record = event.callId === undefined ? undefined : ledger.markErrored(event.callId);
      return eventRow(
        event,
        {
          type: "error",
          call_key: record?.call_key ?? null,
          text: event.message,
          data_json: json({ layer: event.layer, path: event.path, callId: event.callId }),
        },
        at,
      );
    }
    case "protocol": {
      // Protocol traffic (MCP initialize, progress, sampling…) is on the timeline, tied to its call when it has one.
      const record = event.callId === undefined ? undefined : ledger.slotFor(event.callId)?.record;
      const data = { path: event.path, method: event.method, direction: event.direction, callId: event.callId };
      return eventRow(
        event,
        { type: "protocol", call_key: record?.call_key ?? null, text: event.text, data_json: json(data) },
        at,
      );
    }
  }
}

function resultRow(
  event: ToolResultEvent,
  ledger: CallLedger,
  orphanIssues: ReadonlyMap<string, string>,
  at: string,
): EventDraft {
  const common = {
    path: event.path,
    callId: event.callId,
    name: event.name,
    isError: event.isError,
    errorSignal: event.errorSignal,
    content: event.content,
    structuredContent: event.structuredContent,
  };
  const slot = ledger.slotFor(event.callId);
  if (slot === undefined) {
    const issue = orphanIssues.get(event.path) ?? `result for unknown call ${event.callId}`;
    return eventRow(event, { type: "tool_result", text: event.text, data_json: json({ ...common, issue }) }, at);
  }
  const result = ledger.addResult(event, slot);
  // The canonical text is kept only where the stored result text differs from it (MCP).
  const data = result.text === event.text ? common : { ...common, text: event.text };
  return eventRow(
    event,
    {
      type: "tool_result",
      call_key: slot.record.call_key,
      result: { call_key: result.call_key, ordinal: result.ordinal },
      data_json: json(data),
    },
    at,
  );
}
