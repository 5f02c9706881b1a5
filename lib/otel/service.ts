// OpenTelemetry ingest, the table of contents: an OTLP trace export in, spans stored and mapped onto threads,
// the ExportTraceServiceResponse's partial_success out. Also the call page's view of a call's spans.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { RequestAborted } from "../http/read-body.ts";
import type { DecodedExport } from "./otlp-types.ts";
import { spanWriter } from "./span-writer.ts";
import { prepareSpans } from "./store-spans.ts";

export { getCallSpans } from "./call-spans.ts";

/** Spans being stored at once in this process; beyond it senders are asked to come back (429 + Retry-After). */
export const MAX_SPANS_IN_FLIGHT = 50_000;
let spansInFlight = 0;

export type PartialSuccess = { rejectedSpans: number; errorMessage: string } | null;

/**
 * Stores an export's spans and maps their traces; resolves once both are durable. Refused spans and warnings
 * (a conversation id that cannot name a thread) come back as partial_success, as OTLP asks.
 */
export async function acceptTraceExport(options: {
  decoded: DecodedExport;
  database?: Database;
  receivedAt?: Date;
}): Promise<PartialSuccess> {
  const { decoded } = options;
  const count = decoded.spans.length;
  if (spansInFlight > 0 && spansInFlight + count > MAX_SPANS_IN_FLIGHT) {
    throw new AppError(
      "rate_limited",
      `${spansInFlight} spans are being stored; retry this batch of ${count} shortly`,
      { retryAfterSeconds: 2 },
    );
  }
  spansInFlight += count;
  let warnings: string[];
  try {
    const database = options.database ?? (await getDatabase());
    warnings = await spanWriter(database).submit(prepareSpans(decoded.spans, options.receivedAt ?? new Date()));
  } catch (error) {
    if (error instanceof AppError || error instanceof RequestAborted) throw error;
    // The transaction rolled back. A large export is stored in parts (span-writer.ts): parts stored before stay,
    // and the exporter's retry (OTLP exporters retry a 503) stores each span once.
    console.error("[toolscope] storing OTLP spans failed", error);
    throw new AppError(
      "unavailable",
      "The spans could not be stored. Retry the export: spans already stored are kept once, the rest are stored then.",
      { retryAfterSeconds: 1 },
    );
  } finally {
    spansInFlight -= count;
  }
  const messages = [
    ...(decoded.rejected.count > 0
      ? [`${decoded.rejected.count} span(s) refused: ${decoded.rejected.reasons.join("; ")}`]
      : []),
    ...warnings,
  ];
  if (messages.length === 0) return null;
  return { rejectedSpans: decoded.rejected.count, errorMessage: messages.join(". ").slice(0, 4000) };
}
