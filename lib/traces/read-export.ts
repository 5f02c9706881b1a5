// Reads a Toolscope JSONL export back into records, checking every line, reference, hash and the trailer's counts.
import type { z } from "zod";
import { formatIssuePath } from "../http/issue-path.ts";
import { AppError } from "../http/app-error.ts";
import { sha256Hex } from "../results/hash.ts";
import {
  callRecordSchema,
  deliveryRecordSchema,
  endRecordSchema,
  EXPORT_KIND,
  eventRecordSchema,
  headerRecordSchema,
  resultRecordSchema,
  threadRecordSchema,
  type ResultRef,
  type ThreadExport,
} from "./export-format.ts";

/** One JSONL value and where it was: `line` is 1-based in the file (blank lines counted). */
export type ExportLine = { line: number; value: unknown };

function fail(line: number, path: string, message: string): never {
  const where = path === "" ? `line ${line}` : `line ${line}: ${path}`;
  throw new AppError("invalid", `${where}: ${message}`, {
    path: path === "" ? `line ${line}` : `line ${line}.${path}`,
  });
}

function parseLine<T>(schema: z.ZodType<T>, { line, value }: ExportLine): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  fail(line, issue ? formatIssuePath(issue.path) : "", issue?.message ?? "not a valid record");
}

function kindOf(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("kind" in value)) return null;
  return typeof value.kind === "string" ? value.kind : null;
}

/** Splits export text into lines with their numbers; every non-blank line must be one JSON value. */
export function readExportText(
  text: string,
  onProgress?: (linesDone: number, linesTotal: number) => void,
): ExportLine[] {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  const out: ExportLine[] = [];
  lines.forEach((content, index) => {
    if (onProgress !== undefined && index % 2000 === 0) onProgress(index, lines.length);
    if (content.trim() === "") return;
    try {
      out.push({ line: index + 1, value: JSON.parse(content) });
    } catch (error) {
      fail(index + 1, "", `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  onProgress?.(lines.length, lines.length);
  return out;
}

const refKey = (ref: ResultRef) => JSON.stringify([ref.call_key, ref.ordinal]);

/**
 * Validates an export and returns its records. Order: header, thread, then call/result/event/delivery lines
 * (each kind in its own order; references must point to records already read), then the end trailer.
 */
export function parseExport(lines: readonly ExportLine[]): ThreadExport {
  const first = lines[0];
  if (first === undefined) throw new AppError("invalid", "empty export");
  const header = parseLine(headerRecordSchema, first);
  const second = lines[1];
  if (second === undefined || kindOf(second.value) !== "thread") {
    fail(second?.line ?? first.line + 1, "kind", 'expected the "thread" record after the header');
  }
  const data: ThreadExport = {
    groupId: header.group_id,
    thread: parseLine(threadRecordSchema, second),
    calls: [],
    results: [],
    events: [],
    deliveries: [],
  };
  const callKeys = new Set<string>();
  const resultKeys = new Set<string>();
  let ended = false;

  for (const entry of lines.slice(2)) {
    if (ended) fail(entry.line, "", 'nothing may follow the "end" record');
    const kind = kindOf(entry.value);
    switch (kind) {
      case "call": {
        const call = parseLine(callRecordSchema, entry);
        if (callKeys.has(call.call_key))
          fail(entry.line, "call_key", `duplicate call ${JSON.stringify(call.call_key)}`);
        callKeys.add(call.call_key);
        data.calls.push(call);
        break;
      }
      case "result": {
        const result = parseLine(resultRecordSchema, entry);
        if (!callKeys.has(result.call_key))
          fail(entry.line, "call_key", `no earlier call ${JSON.stringify(result.call_key)}`);
        const ref = refKey(result);
        if (resultKeys.has(ref))
          fail(entry.line, "ordinal", `duplicate result ${result.ordinal} of call ${JSON.stringify(result.call_key)}`);
        // The hash is the audit's anchor: a text that no longer matches it was edited or damaged in transit.
        if (sha256Hex(result.text) !== result.text_sha256) fail(entry.line, "text", "does not match text_sha256");
        resultKeys.add(ref);
        data.results.push(result);
        break;
      }
      case "event": {
        const event = parseLine(eventRecordSchema, entry);
        if (event.index !== data.events.length)
          fail(entry.line, "index", `expected ${data.events.length}, got ${event.index}`);
        if (event.call_key !== null && !callKeys.has(event.call_key))
          fail(entry.line, "call_key", `no earlier call ${JSON.stringify(event.call_key)}`);
        if (event.result !== null && !resultKeys.has(refKey(event.result)))
          fail(entry.line, "result", "names no earlier result");
        data.events.push(event);
        break;
      }
      case "delivery": {
        const delivery = parseLine(deliveryRecordSchema, entry);
        if (delivery.index !== data.deliveries.length)
          fail(entry.line, "index", `expected ${data.deliveries.length}, got ${delivery.index}`);
        if (delivery.tool_call !== null && !callKeys.has(delivery.tool_call))
          fail(entry.line, "tool_call", `no earlier call ${JSON.stringify(delivery.tool_call)}`);
        if (delivery.result !== null && !resultKeys.has(refKey(delivery.result)))
          fail(entry.line, "result", "names no earlier result");
        if (delivery.raw_body_base64 !== null && !delivery.raw_body_truncated && delivery.body_sha256 !== null) {
          if (sha256Hex(Buffer.from(delivery.raw_body_base64, "base64")) !== delivery.body_sha256)
            fail(entry.line, "raw_body_base64", "does not match body_sha256");
        }
        data.deliveries.push(delivery);
        break;
      }
      case "end": {
        const end = parseLine(endRecordSchema, entry);
        const counts = {
          calls: data.calls.length,
          results: data.results.length,
          events: data.events.length,
          deliveries: data.deliveries.length,
        };
        for (const [name, expected] of Object.entries(end.counts)) {
          const actual = counts[name as keyof typeof counts];
          if (actual !== expected)
            fail(entry.line, `counts.${name}`, `the file holds ${actual} ${name}, the trailer says ${expected}`);
        }
        ended = true;
        break;
      }
      case EXPORT_KIND:
        fail(entry.line, "kind", "a second export header: one file holds one thread");
        break;
      default:
        fail(
          entry.line,
          "kind",
          `expected call, result, event, delivery or end, got ${kind === null ? "no kind" : JSON.stringify(kind)}`,
        );
    }
  }
  if (!ended) throw new AppError("invalid", 'the export has no "end" record: the file was cut short', { path: "end" });
  for (const result of data.results) {
    if (result.delivery !== null && result.delivery >= data.deliveries.length) {
      throw new AppError(
        "invalid",
        `result ${result.ordinal} of call ${JSON.stringify(result.call_key)}: delivery ${result.delivery} does not exist`,
        { path: "delivery" },
      );
    }
  }
  return data;
}
