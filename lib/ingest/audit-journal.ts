// The side journal of audit rows the database could not take (it was locked by another process, or down):
// each is appended to a file beside the database and fsynced before the sender is answered, then folded
// into the Delivery table once the database takes writes again. So "every delivery is a row" holds after a
// lock or an outage too; the row's receivedAt is when it arrived, its id when it was folded in.
import "server-only";
import { setting } from "../config.ts";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../db/client.ts";
import type { DatabaseTarget } from "../db/database-url.ts";
import { insertDeliveries, type NewDelivery } from "./repository.ts";

const PREFIX = ".toolscope-refused-";
// A claimed file (being folded) left behind by a process that died is folded again after this long.
const STALE_CLAIM_MS = 60_000;

type JournalLine = Omit<NewDelivery, "receivedAt" | "rawBody" | "result"> & {
  receivedAt: string;
  rawBody: string | null;
};

/** Where a database's journal files live: beside a SQLite file; TOOLSCOPE_JOURNAL_DIR or ./data for PostgreSQL. */
export function journalDir(target: DatabaseTarget): string {
  if (target.provider === "sqlite" && target.file !== ":memory:") return path.dirname(target.file);
  return path.resolve(setting("TOOLSCOPE_JOURNAL_DIR") ?? "data");
}

function journalStem(target: DatabaseTarget): string {
  return `${PREFIX}${createHash("sha256").update(target.url).digest("hex").slice(0, 12)}-`;
}

// Appends and folds of this process take turns: a fold never reads a file an append is still writing.
// Other processes fold only files whose writer has exited (each process appends to files named by its pid).
let turn: Promise<unknown> = Promise.resolve();
function inTurn<R>(work: () => Promise<R>): Promise<R> {
  const next = turn.then(work, work);
  turn = next.catch(() => {});
  return next;
}

function ownerAlive(file: string, stem: string): boolean {
  const pid = Number(/^(\d+)/.exec(path.basename(file).slice(stem.length))?.[1]);
  if (!Number.isInteger(pid) || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Appends rows to this process's journal file for `target`, durably (fsync) before returning. */
export function journalDeliveries(target: DatabaseTarget, rows: NewDelivery[]): Promise<void> {
  return inTurn(() => appendRows(target, rows));
}

async function appendRows(target: DatabaseTarget, rows: NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  const dir = journalDir(target);
  await fs.promises.mkdir(dir, { recursive: true });
  const text = rows
    .map(({ result, receivedAt, rawBody, ...rest }) => {
      // A journaled row points at no result: only refusals and failed deliveries are journaled.
      const line: JournalLine = {
        ...rest,
        receivedAt: receivedAt.toISOString(),
        rawBody: rawBody ? Buffer.from(rawBody).toString("base64") : null,
      };
      void result;
      return `${JSON.stringify(line)}\n`;
    })
    .join("");
  const handle = await fs.promises.open(path.join(dir, `${journalStem(target)}${process.pid}.jsonl`), "a");
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function parseLine(text: string): NewDelivery | null {
  try {
    const line = JSON.parse(text) as JournalLine;
    return {
      ...line,
      receivedAt: new Date(line.receivedAt),
      rawBody: line.rawBody === null ? null : Buffer.from(line.rawBody, "base64"),
      result: null,
    };
  } catch {
    return null; // a line cut by a crash mid-append
  }
}

/** Journal files of `target` waiting to be folded (the storage view and health count them). */
export function pendingJournalFiles(target: DatabaseTarget): string[] {
  const dir = journalDir(target);
  const stem = journalStem(target);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith(stem)).map((name) => path.join(dir, name));
}

/**
 * Moves every journaled row of `database` into the Delivery table (any process's journal: a file is claimed
 * by renaming it first, so two processes never fold the same file). Returns how many rows were folded.
 */
export function foldAuditJournal(database: Database): Promise<number> {
  return inTurn(() => foldFiles(database));
}

async function foldFiles(database: Database): Promise<number> {
  let folded = 0;
  const stem = journalStem(database.target);
  for (const file of pendingJournalFiles(database.target)) {
    if (ownerAlive(file, stem)) continue;
    const claimed = claimFile(file);
    if (!claimed) continue;
    const rows = (await fs.promises.readFile(claimed, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map(parseLine)
      .filter((row) => row !== null);
    try {
      await database.driverTransaction((tx) => insertDeliveries(tx, rows));
    } catch (error) {
      // Still unavailable: give the file back under a fresh name (its writer may have started a new one).
      await fs.promises
        .rename(claimed, path.join(path.dirname(file), `${stem}${process.pid}-${Date.now()}.jsonl`))
        .catch(() => {});
      throw error;
    }
    await fs.promises.unlink(claimed);
    folded += rows.length;
  }
  return folded;
}

function claimFile(file: string): string | null {
  if (file.endsWith(".folding")) {
    // Another process is folding it, unless it died doing so.
    try {
      if (Date.now() - fs.statSync(file).mtimeMs < STALE_CLAIM_MS) return null;
      fs.utimesSync(file, new Date(), new Date());
      return file;
    } catch {
      return null;
    }
  }
  const claimed = `${file}.folding`;
  try {
    fs.renameSync(file, claimed);
    return claimed;
  } catch {
    return null; // another process claimed it first
  }
}
