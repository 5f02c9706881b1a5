// Importing a transcript as one thread: a vendor transcript (lib/formats) or a Toolscope JSONL export, written
// in one transaction. Re-importing the same input answers like the first time; different content under a
// taken group id is a conflict.
import "server-only";
import { parseTranscript, readJsonOrJsonl } from "../formats/detect.ts";
import { FormatError } from "../formats/format-error.ts";
import { describePrincipal, LOCAL_PRINCIPAL, type Principal } from "../access/principal.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { ID_MAX, identifierProblem, isDotSegment } from "../ingest/schemas.ts";
import { AppError } from "../http/app-error.ts";
import { sha256Hex } from "../results/hash.ts";
import { buildImport, type ImportMetadata } from "./build-import.ts";
import { IMPORT_EVENT, IMPORT_ISSUE_EVENT } from "./event-kinds.ts";
import { exportLines, isExportHeader, type ThreadExport } from "./export-format.ts";
import { exportThreadText } from "./export-thread.ts";
import { parseExport, readExportText, type ExportLine } from "./read-export.ts";
import { findImportEventData, findThread } from "./repository/threads.ts";
import { writeThread } from "./repository/write-thread.ts";
import type { ImportFormat, ImportResult } from "./schemas.ts";

export type ImportProgress = { phase: "parse" | "write"; done: number; total: number };

export type ImportTranscriptOptions = {
  /** The transcript as text (JSON or JSONL); or `value`, already parsed. */
  text?: string;
  value?: unknown;
  /** Overrides detection. */
  format?: ImportFormat;
  /** Default: the export's own group id, or `import-<format>-<first 12 hex of the input's sha256>`. */
  groupId?: string;
  /** The thread's title (e.g. the file name) for vendor transcripts. */
  name?: string | null;
  /** Who runs the import (the endpoint's principal; the CLI is local): stamped on the audit rows it writes. */
  principal?: Principal;
  database?: Database;
  now?: Date;
  onProgress?: (progress: ImportProgress) => void;
};

export type ImportReply = { status: 200 | 201; body: ImportResult };

// A large import is one transaction; it may take a while on a slow disk, and must not be cut at the default 30 s.
const IMPORT_TRANSACTION = { timeout: 10 * 60_000, maxWait: 60_000 };

type Prepared =
  | { kind: "toolscope"; data: ThreadExport }
  | { kind: "vendor"; data: ThreadExport; metadata: ImportMetadata; issues: { path: string; message: string }[] };

function firstLineIsExportHeader(text: string): boolean {
  const start = text.startsWith("\uFEFF") ? 1 : 0;
  const end = text.indexOf("\n", start);
  const line = text.slice(start, end === -1 ? undefined : end).trim();
  if (!line.startsWith("{")) return false;
  try {
    return isExportHeader(JSON.parse(line));
  } catch {
    return false;
  }
}

// A FormatError names the item and field; the HTTP answer carries both (422 invalid).
function readingFormat<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof FormatError)
      throw new AppError("invalid", error.message, { path: error.path === "" ? undefined : error.path });
    throw error;
  }
}

function prepare(options: ImportTranscriptOptions, now: Date): Prepared {
  const { text, value, format } = options;
  if (text === undefined && value === undefined)
    throw new AppError("invalid", "nothing to import: pass the transcript text or value");
  const progress = (done: number, total: number) => options.onProgress?.({ phase: "parse", done, total });

  let exportLinesRead: ExportLine[] | null = null;
  let parsed: unknown;
  let inputSha256: string;
  if (text !== undefined) {
    inputSha256 = sha256Hex(text);
    if (format === "toolscope" || (format === undefined && firstLineIsExportHeader(text)))
      exportLinesRead = readExportText(text, progress);
    else parsed = readingFormat(() => readJsonOrJsonl(text, progress));
  } else {
    parsed = value;
    inputSha256 = sha256Hex(JSON.stringify(value) ?? "");
    const items = Array.isArray(value) ? value : [value];
    if (format === "toolscope" || (format === undefined && isExportHeader(items[0])))
      exportLinesRead = items.map((item, index) => ({ line: index + 1, value: item }));
  }

  if (exportLinesRead !== null) {
    const data = parseExport(exportLinesRead);
    const groupId = options.groupId ?? data.groupId;
    // Every way in refuses a thread no URL could open (the API's ?group_id= is checked by its schema too).
    if (isDotSegment(groupId))
      throw new AppError(
        "invalid",
        `group_id "${groupId}" cannot be addressed by any URL; import it with another --group-id / ?group_id=`,
        { path: "group_id" },
      );
    checkIdentifiers({ ...data, groupId });
    return { kind: "toolscope", data: { ...data, groupId } };
  }
  const trace = readingFormat(() => parseTranscript(parsed, format === "toolscope" ? undefined : format));
  const groupId = options.groupId ?? `import-${trace.format}-${inputSha256.slice(0, 12)}`;
  if (isDotSegment(groupId))
    throw new AppError("invalid", `group_id "${groupId}" cannot be addressed by any URL; choose another`, {
      path: "group_id",
    });
  const { data, metadata } = buildImport(trace, { groupId, name: options.name ?? null, inputSha256, importedAt: now });
  checkIdentifiers(data);
  return { kind: "vendor", data, metadata, issues: trace.issues.map(({ path, message }) => ({ path, message })) };
}

/**
 * A transcript's call ids and tool names become identifiers as at every other way in (identifierProblem): a NUL or
 * a few kilobytes there was a 500 on PostgreSQL (NUL, or an index entry over 2,704 bytes) while SQLite stored it.
 */
function checkIdentifiers(data: ThreadExport): void {
  const groupProblem = identifierProblem(data.groupId, ID_MAX);
  if (groupProblem !== null)
    throw new AppError("invalid", `group_id is not a storable identifier: ${groupProblem}`, { path: "group_id" });
  for (const call of data.calls) {
    for (const [field, value] of [
      ["id", call.call_key],
      ["name", call.tool_name],
    ] as const) {
      const problem = identifierProblem(value, ID_MAX);
      if (problem !== null)
        throw new AppError(
          "invalid",
          `a tool call's ${field} is not a storable identifier: ${problem} (${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? "…" : ""})`,
          { path: `calls.${field}` },
        );
    }
  }
}

function resultOf(prepared: Prepared, created: boolean): ImportResult {
  const { data } = prepared;
  if (prepared.kind === "vendor") {
    const { counts, format } = prepared.metadata;
    return { group_id: data.groupId, format, created, counts: { ...counts, deliveries: 0 }, issues: prepared.issues };
  }
  // An export carries the issues of the import that first created the thread as import_issue events.
  const issues = data.events
    .filter((event) => event.type === IMPORT_ISSUE_EVENT)
    .map((event) => issueOf(event.data_json, event.text));
  return {
    group_id: data.groupId,
    format: "toolscope",
    created,
    counts: {
      events: data.events.length,
      calls: data.calls.length,
      results: data.results.length,
      deliveries: data.deliveries.length,
      issues: issues.length,
    },
    issues,
  };
}

function issueOf(dataJson: string | null, text: string | null): { path: string; message: string } {
  try {
    const data: unknown = JSON.parse(dataJson ?? "null");
    if (typeof data === "object" && data !== null && "path" in data && typeof data.path === "string")
      return { path: data.path, message: text ?? "" };
  } catch {
    // fall through: an issue without a readable path is still reported
  }
  return { path: "", message: text ?? "" };
}

/** True when the existing thread holds exactly what this import would write. */
async function isSameImport(db: Database, prepared: Prepared): Promise<boolean> {
  if (prepared.kind === "toolscope") {
    const existing = await exportThreadText({ groupId: prepared.data.groupId, database: db });
    return existing === [...exportLines(prepared.data)].join("");
  }
  const thread = await findThread(db.client, prepared.data.groupId);
  if (thread === null) return false;
  const recorded = await findImportEventData(db.client, thread.id, IMPORT_EVENT);
  if (recorded === null) return false;
  try {
    const data: unknown = JSON.parse(recorded);
    return (
      typeof data === "object" &&
      data !== null &&
      "inputSha256" in data &&
      data.inputSha256 === prepared.metadata.inputSha256 &&
      "format" in data &&
      data.format === prepared.metadata.format
    );
  } catch {
    return false;
  }
}

export async function importTranscript(options: ImportTranscriptOptions): Promise<ImportReply> {
  const db = options.database ?? (await getDatabase());
  const now = options.now ?? new Date();
  const prepared = prepare(options, now);
  const { data } = prepared;
  const mark = { at: now, by: describePrincipal(options.principal ?? LOCAL_PRINCIPAL) };
  let created: boolean;
  try {
    created = await db.transaction(async (tx) => {
      if ((await findThread(tx, data.groupId)) !== null) return false;
      await writeThread(tx, data, mark, (done, total) => options.onProgress?.({ phase: "write", done, total }));
      return true;
    }, IMPORT_TRANSACTION);
  } catch (error) {
    // Two imports of one group id racing: the loser compares with what the winner wrote.
    if (!isUniqueViolation(error)) throw error;
    created = false;
  }
  if (!created && !(await isSameImport(db, prepared))) {
    throw new AppError(
      "conflict",
      `Thread "${data.groupId}" already exists with different content; import it under another group_id`,
    );
  }
  return { status: created ? 201 : 200, body: resultOf(prepared, created) };
}
