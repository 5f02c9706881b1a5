// Reading a transcript file: one JSON document, JSONL (one value per line), or a raw Server-Sent Events capture
// (`event:` / `data:` lines, as a streaming API sends them). Numbers keep their source digits (lossless-json).
import { createParser } from "eventsource-parser";
import { FormatError } from "./format-error";
import { parseJsonLossless } from "./lossless-json";

/** Reports parse progress for JSONL input (lines read so far, total lines); a single JSON document is one step. */
export type ParseProgress = (linesDone: number, linesTotal: number) => void;

// How often JSONL progress is reported: often enough for a progress bar, rarely enough to cost nothing.
const PROGRESS_EVERY_LINES = 2000;

// An SSE capture starts with a field line (or a `:` comment) rather than with a JSON value.
const SSE_START = /^(?::[^\n]*\n)*(event|data|id|retry):/;

/**
 * Accepts one JSON document, JSONL (blank lines skipped; the lines become an array) or an SSE capture (each
 * event's JSON data becomes an array item; `[DONE]` ends a Chat Completions stream and is dropped). JSON is tried
 * first; the text is read as JSONL only when its first line is a JSON value by itself, so a broken pretty-printed
 * document reports its own JSON error rather than "line 1".
 */
export function readJsonOrJsonl(text: string, onProgress?: ParseProgress): unknown {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (source.trim() === "") throw new FormatError("", "empty transcript");
  if (SSE_START.test(source.trimStart())) return readServerSentEvents(source);
  let documentError: string;
  try {
    const value = parseJsonLossless(source);
    onProgress?.(1, 1);
    return value;
  } catch (error) {
    documentError = errorMessage(error);
  }
  const lines = source.split(/\r?\n/);
  const firstLine = lines.findIndex((line) => line.trim() !== "");
  if (firstLine === -1 || !parsesAlone(lines[firstLine] ?? "")) {
    throw new FormatError("", `invalid JSON: ${documentError}`);
  }
  const values: unknown[] = [];
  lines.forEach((line, index) => {
    if (onProgress !== undefined && index % PROGRESS_EVERY_LINES === 0) onProgress(index, lines.length);
    if (line.trim() === "") return;
    try {
      values.push(parseJsonLossless(line));
    } catch (error) {
      const lineNumber = index + 1;
      throw new FormatError(`line ${lineNumber}`, `invalid JSON on line ${lineNumber}: ${errorMessage(error)}`);
    }
  });
  onProgress?.(lines.length, lines.length);
  return values;
}

/** An SSE capture → the JSON data of each event, in order. */
export function readServerSentEvents(text: string): unknown[] {
  const values: unknown[] = [];
  let failure: FormatError | undefined;
  let count = 0;
  const parser = createParser({
    onEvent(event) {
      count += 1;
      if (failure !== undefined || event.data === "[DONE]") return;
      try {
        values.push(parseJsonLossless(event.data));
      } catch (error) {
        failure = new FormatError(
          `event ${count}`,
          `event ${count}${event.event ? ` (${event.event})` : ""} has data that is not JSON: ${errorMessage(error)}`,
        );
      }
    },
  });
  parser.feed(text.endsWith("\n\n") ? text : `${text}\n\n`);
  if (failure !== undefined) throw failure;
  if (values.length === 0) throw new FormatError("", "an event stream with no JSON data events");
  return values;
}

function parsesAlone(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
