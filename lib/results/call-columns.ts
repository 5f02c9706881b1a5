// (Pure: in lib/results so that every writer of calls may import it.)
// The explorer's per-call columns, as the ToolResult insert trigger computes them (migrations
// 20261126055445_explorer_calls and 20261126093000_explorer_trigger_guard): the newest result's verdict
// fields, late when any result was, and the first result's latency (meta.durationMs when the tool reported
// a usable one, else first result − request; a negative wall-clock difference is no measurement).
// A writer that inserts a call together with its result (OTLP ingest) sets them on the call row itself; the
// trigger then finds nothing to change and skips the second write of the call — on PostgreSQL a new row
// version with an entry in each of the call's ~20 indexes. The trigger stays the authority: when a value here
// differs from its own, it overwrites it.
export type ExplorerCallColumns = {
  resultEnvelopeKind: string | null;
  resultSuccess: boolean | null;
  resultIsError: boolean | null;
  resultErrorSource: string | null;
  resultErrorType: string | null;
  resultConfidence: number | null;
  resultNextAction: string | null;
  resultLate: boolean;
  latencyMs: number | null;
};

export const EXPLORER_CALL_COLUMNS = [
  "resultEnvelopeKind",
  "resultSuccess",
  "resultIsError",
  "resultErrorSource",
  "resultErrorType",
  "resultConfidence",
  "resultNextAction",
  "resultLate",
  "latencyMs",
] as const satisfies readonly (keyof ExplorerCallColumns)[];

/** The columns of a call with no result. */
export const NO_RESULT_COLUMNS: ExplorerCallColumns = {
  resultEnvelopeKind: null,
  resultSuccess: null,
  resultIsError: null,
  resultErrorSource: null,
  resultErrorType: null,
  resultConfidence: null,
  resultNextAction: null,
  resultLate: false,
  latencyMs: null,
};

type FirstResult = {
  envelopeKind: string | null;
  success: boolean | null;
  isError: boolean;
  errorSource: string | null;
  errorType: string | null;
  confidence: number | null;
  nextAction: string | null;
  late: boolean;
  metaDurationMs: number | null;
  receivedAt: Date;
};

/** The columns of a call whose only result is `result` (its first, ordinal 0). */
export function firstResultColumns(result: FirstResult, requestedAt: Date): ExplorerCallColumns {
  const waited = result.receivedAt.getTime() - requestedAt.getTime();
  return {
    resultEnvelopeKind: result.envelopeKind,
    resultSuccess: result.success,
    resultIsError: result.isError,
    resultErrorSource: result.errorSource,
    resultErrorType: result.errorType,
    resultConfidence: result.confidence,
    resultNextAction: result.nextAction,
    resultLate: result.late,
    latencyMs:
      result.metaDurationMs !== null && result.metaDurationMs >= 0
        ? result.metaDurationMs
        : waited >= 0
          ? Math.round(waited)
          : null,
  };
}
