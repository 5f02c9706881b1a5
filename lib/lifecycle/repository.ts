// SQL for the data lifecycle: which threads retention removes, removing one thread in small steps (every
// model that hangs off a thread: deliveries, OTel traces and spans, events, results, calls, fork runs and
// turns, the thread), orphans (refused deliveries of no thread, spans of no trace, unused scopes), and the
// figures of the storage view. Every DELETE takes at most CHUNK rows, so no transaction stalls ingestion.
import "server-only";
import type { Database, ModelClient } from "../db/client.ts";
import { Prisma } from "../db/generated/sqlite/client.ts";
import { sql, type Sql } from "../db/sql.ts";

export const CHUNK = 500;

/**
 * A thread retention may remove. `liveAfter`: a call still pending with no deadline or a deadline at or after it,
 * or an open subscription, keeps the thread (the age cutoff for age-based retention, now for size-based).
 */
export type ThreadRow = {
  id: number;
  groupId: string;
  lastActivityAt: Date;
  liveAfter: Date;
  estimatedBytes?: number;
};

type RawThread = { id: number | bigint; groupId: string; lastActivityAt: Date | string | number };
const toThread =
  (liveAfter: Date) =>
  (row: RawThread): ThreadRow => ({
    id: Number(row.id),
    groupId: row.groupId,
    lastActivityAt: new Date(row.lastActivityAt),
    liveAfter,
  });

/**
 * The thread `th` is still live at `liveAfter`: a call of it is pending without a deadline or with one not past
 * `liveAfter` (its result may still come), or a subscription of it is open (results keep coming). A pending call
 * past its deadline no longer keeps it: its inactivity started at the deadline, and a late result moves
 * lastActivityAt like any other.
 */
function live(liveAfter: Date): Sql {
  return sql`EXISTS (SELECT 1 FROM "ToolCall" k WHERE k."threadId" = th."id" AND ((k."status" = 'pending' AND (k."deadlineAt" IS NULL OR k."deadlineAt" >= ${liveAfter})) OR k."subscription" = 'active'))`;
}

/** Threads whose last activity is before `cutoff` and that are not live at it, oldest first. */
export async function expiredThreads(db: ModelClient, cutoff: Date, limit: number): Promise<ThreadRow[]> {
  const rows = await db.$queryRaw<RawThread[]>(
    sql`SELECT th."id", th."groupId", th."lastActivityAt" FROM "Thread" th WHERE th."lastActivityAt" < ${cutoff} AND th."removingAt" IS NULL AND NOT ${live(cutoff)} ORDER BY th."lastActivityAt", th."id" LIMIT ${limit}`,
  );
  return rows.map(toThread(cutoff));
}

/** The oldest threads (by last activity) not live now, for size-based retention. */
export async function oldestThreads(db: ModelClient, now: Date, limit: number, offset = 0): Promise<ThreadRow[]> {
  const rows = await db.$queryRaw<RawThread[]>(
    sql`SELECT th."id", th."groupId", th."lastActivityAt" FROM "Thread" th WHERE th."removingAt" IS NULL AND NOT ${live(now)} ORDER BY th."lastActivityAt", th."id" LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map(toThread(now));
}

/** Threads whose removal was decided (fenced) but not finished, e.g. by a process that stopped: resumed first. */
export async function fencedThreads(db: ModelClient, limit: number): Promise<ThreadRow[]> {
  const rows = await db.$queryRaw<RawThread[]>(
    sql`SELECT th."id", th."groupId", th."lastActivityAt" FROM "Thread" th WHERE th."removingAt" IS NOT NULL ORDER BY th."removingAt", th."id" LIMIT ${limit}`,
  );
  return rows.map(toThread(new Date(0)));
}

/**
 * Decides a thread's removal, in one write transaction before any of its rows go: only if it is still as old
 * as when it was chosen and still not live. From then on writers treat it as gone (a callback for one of its
 * calls is an unknown call, an event for its group waits for the removal to end) and readers do not list it,
 * so its removal in small steps is all or nothing as anyone sees it. Returns false when it came back to life.
 */
export async function fenceThread(tx: ModelClient, thread: ThreadRow, at: Date): Promise<boolean> {
  const changed = await tx.$executeRaw(
    sql`UPDATE "Thread" SET "removingAt" = ${at} WHERE "id" = ${thread.id} AND ("removingAt" IS NOT NULL OR ("lastActivityAt" <= ${thread.lastActivityAt} AND NOT ${liveSelf(thread.liveAfter)}))`,
  );
  return changed > 0;
}

// The same test as live(), for the UPDATE of the thread itself (no alias in an UPDATE on both dialects).
function liveSelf(liveAfter: Date): Sql {
  return sql`EXISTS (SELECT 1 FROM "ToolCall" k WHERE k."threadId" = "Thread"."id" AND ((k."status" = 'pending' AND (k."deadlineAt" IS NULL OR k."deadlineAt" >= ${liveAfter})) OR k."subscription" = 'active'))`;
}

/** Roughly how many bytes a thread's rows hold (payload columns plus ~100 bytes of row overhead each). */
export async function estimateThreadBytes(db: ModelClient, thread: ThreadRow): Promise<number> {
  const [row] = await db.$queryRaw<{ bytes: number | bigint | string | null }[]>(sql`SELECT
    COALESCE((SELECT SUM(COALESCE(LENGTH(r."text"), 0) + COALESCE(LENGTH(r."analysisJson"), 0) + 100) FROM "ToolResult" r JOIN "ToolCall" c ON c."id" = r."toolCallId" WHERE c."threadId" = ${thread.id}), 0)
    + COALESCE((SELECT SUM(COALESCE(LENGTH(c."argumentsText"), 0) + COALESCE(LENGTH(c."declarationJson"), 0) + 100) FROM "ToolCall" c WHERE c."threadId" = ${thread.id}), 0)
    + COALESCE((SELECT SUM(COALESCE(LENGTH(e."text"), 0) + COALESCE(LENGTH(e."dataJson"), 0) + COALESCE(LENGTH(e."rawJson"), 0) + 100) FROM "Event" e WHERE e."threadId" = ${thread.id}), 0)
    + COALESCE((SELECT SUM(COALESCE(LENGTH(d."rawBody"), 0) + 100) FROM "Delivery" d WHERE d."groupId" = ${thread.groupId}), 0)
    + COALESCE((SELECT SUM(LENGTH(s."spanJson") + 100) FROM "OtelSpan" s JOIN "OtelTrace" t ON t."traceId" = s."traceId" WHERE t."groupId" = ${thread.groupId}), 0)
    AS bytes`);
  return Number(row?.bytes ?? 0);
}

// Each step deletes up to CHUNK rows of one kind of a fenced thread (fenceThread ran first).
function threadSteps(thread: ThreadRow): { table: string; where: Sql }[] {
  const fenced = sql`EXISTS (SELECT 1 FROM "Thread" t0 WHERE t0."id" = ${thread.id} AND t0."removingAt" IS NOT NULL)`;
  return [
    // The thread's audit rows up to its fence; deliveries refused after it (unknown calls now) stay as orphans.
    {
      table: "Delivery",
      where: sql`"groupId" = ${thread.groupId} AND "receivedAt" <= (SELECT t1."removingAt" FROM "Thread" t1 WHERE t1."id" = ${thread.id})`,
    },
    {
      table: "OtelSpan",
      where: sql`"traceId" IN (SELECT "traceId" FROM "OtelTrace" WHERE "groupId" = ${thread.groupId}) AND ${fenced}`,
    },
    { table: "OtelTrace", where: sql`"groupId" = ${thread.groupId} AND ${fenced}` },
    { table: "Event", where: sql`"threadId" = ${thread.id} AND ${fenced}` },
    {
      table: "ToolResult",
      where: sql`"toolCallId" IN (SELECT "id" FROM "ToolCall" WHERE "threadId" = ${thread.id}) AND ${fenced}`,
    },
    { table: "ToolCall", where: sql`"threadId" = ${thread.id} AND ${fenced}` },
    {
      table: "ModelTurn",
      where: sql`"forkRunId" IN (SELECT "id" FROM "ForkRun" WHERE "threadId" = ${thread.id}) AND ${fenced}`,
    },
    { table: "ForkRun", where: sql`"threadId" = ${thread.id} AND ${fenced}` },
    // Forks made from this thread stay (they are threads of their own); their link is cleared by the FK.
    { table: "Thread", where: sql`"id" = ${thread.id} AND "removingAt" IS NOT NULL` },
  ];
}

function chunkDelete(table: string, where: Sql): Sql {
  const name = Prisma.raw(`"${table}"`);
  const key = table === "OtelScope" ? Prisma.raw(`"sha256"`) : Prisma.raw(`"id"`);
  return sql`DELETE FROM ${name} WHERE ${key} IN (SELECT ${key} FROM ${name} WHERE ${where} LIMIT ${CHUNK})`;
}

/** One small step of removing a fenced `thread`: `{table, deleted}`, or null when nothing of it is left. */
export async function deleteThreadStep(
  tx: ModelClient,
  thread: ThreadRow,
): Promise<{ table: string; deleted: number } | null> {
  for (const step of threadSteps(thread)) {
    const deleted = await tx.$executeRaw(chunkDelete(step.table, step.where));
    if (deleted > 0) return { table: step.table, deleted };
  }
  return null;
}

/** What, older than `cutoff`, belongs to no thread: refused deliveries, spans of unmapped traces, unused scopes. */
function orphanSteps(cutoff: Date): { table: string; where: Sql }[] {
  return [
    {
      table: "Delivery",
      where: sql`"receivedAt" < ${cutoff} AND ("groupId" IS NULL OR NOT EXISTS (SELECT 1 FROM "Thread" t WHERE t."groupId" = "Delivery"."groupId"))`,
    },
    {
      table: "OtelSpan",
      where: sql`"receivedAt" < ${cutoff} AND NOT EXISTS (SELECT 1 FROM "OtelTrace" t WHERE t."traceId" = "OtelSpan"."traceId")`,
    },
    {
      table: "OtelScope",
      where: sql`"receivedAt" < ${cutoff} AND NOT EXISTS (SELECT 1 FROM "OtelSpan" s WHERE s."scopeSha256" = "OtelScope"."sha256")`,
    },
  ];
}

export async function deleteOrphanStep(
  tx: ModelClient,
  cutoff: Date,
): Promise<{ table: string; deleted: number } | null> {
  for (const step of orphanSteps(cutoff)) {
    const deleted = await tx.$executeRaw(chunkDelete(step.table, step.where));
    if (deleted > 0) return { table: step.table, deleted };
  }
  return null;
}

export async function countOrphans(db: ModelClient, cutoff: Date): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const step of orphanSteps(cutoff)) {
    const [row] = await db.$queryRaw<{ n: number | bigint }[]>(
      sql`SELECT COUNT(*) AS n FROM ${Prisma.raw(`"${step.table}"`)} WHERE ${step.where}`,
    );
    counts[step.table] = Number(row?.n ?? 0);
  }
  return counts;
}

/** Rows per model table (every model of prisma/models.prisma, as Prisma lists them). */
export async function rowsPerTable(db: ModelClient): Promise<{ table: string; rows: number }[]> {
  const tables = Object.values(Prisma.ModelName);
  const [row] = await db.$queryRawUnsafe<Record<string, number | bigint>[]>(
    `SELECT ${tables.map((t) => `(SELECT COUNT(*) FROM "${t}") AS "${t}"`).join(", ")}`,
  );
  return tables.map((table) => ({ table, rows: Number(row?.[table] ?? 0) }));
}

export async function oldestData(
  db: ModelClient,
): Promise<{ threadActivity: Date | null; delivery: Date | null; span: Date | null }> {
  const [row] = await db.$queryRaw<{ t: Date | string | null; d: Date | string | null; s: Date | string | null }[]>(
    sql`SELECT (SELECT MIN("lastActivityAt") FROM "Thread") AS t, (SELECT MIN("receivedAt") FROM "Delivery") AS d, (SELECT MIN("receivedAt") FROM "OtelSpan") AS s`,
  );
  const date = (value: Date | string | number | null | undefined) =>
    value === null || value === undefined ? null : new Date(value);
  return { threadActivity: date(row?.t), delivery: date(row?.d), span: date(row?.s) };
}

export type SpaceFacts = { databaseBytes: number; freeBytes: number; autoVacuum: string | null };

/**
 * The data in use, as size-based retention counts it. SQLite: pages in use (exact, drops as rows go). PostgreSQL:
 * the same per-row estimate as estimateThreadBytes over every row (one scan), because pg_database_size does not
 * drop after a delete (autovacuum only makes the space reusable) and would make every sweep remove more.
 */
export async function usedBytes(db: Database): Promise<number> {
  if (db.provider === "sqlite") {
    const space = await spaceFacts(db);
    return space.databaseBytes - space.freeBytes;
  }
  const [row] = await db.client.$queryRaw<{ bytes: number | bigint | string | null }[]>(sql`SELECT
    COALESCE((SELECT SUM(COALESCE(LENGTH(r."text"), 0) + COALESCE(LENGTH(r."analysisJson"), 0) + 100) FROM "ToolResult" r), 0)
    + COALESCE((SELECT SUM(COALESCE(LENGTH(c."argumentsText"), 0) + COALESCE(LENGTH(c."declarationJson"), 0) + 100) FROM "ToolCall" c), 0)
    + COALESCE((SELECT SUM(COALESCE(LENGTH(e."text"), 0) + COALESCE(LENGTH(e."dataJson"), 0) + COALESCE(LENGTH(e."rawJson"), 0) + 100) FROM "Event" e), 0)
    + COALESCE((SELECT SUM(COALESCE(LENGTH(d."rawBody"), 0) + 100) FROM "Delivery" d), 0)
    + COALESCE((SELECT SUM(LENGTH(s."spanJson") + 100) FROM "OtelSpan" s), 0)
    AS bytes`);
  return Number(row?.bytes ?? 0);
}

/** Database size: SQLite pages in use and free; PostgreSQL pg_database_size (autovacuum reuses dead space). */
export async function spaceFacts(db: Database): Promise<SpaceFacts> {
  if (db.provider === "sqlite") {
    const one = async (pragma: string) =>
      Number(
        Object.values(
          (await db.client.$queryRawUnsafe<Record<string, number | bigint>[]>(`PRAGMA ${pragma}`))[0] ?? {},
        )[0] ?? 0,
      );
    const [pageCount, pageSize, freelist, autoVacuum] = await Promise.all([
      one("page_count"),
      one("page_size"),
      one("freelist_count"),
      one("auto_vacuum"),
    ]);
    return {
      databaseBytes: pageCount * pageSize,
      freeBytes: freelist * pageSize,
      autoVacuum: ["none", "full", "incremental"][autoVacuum] ?? String(autoVacuum),
    };
  }
  const [row] = await db.client.$queryRawUnsafe<{ size: number | bigint | string }[]>(
    `SELECT pg_database_size(current_database()) AS size`,
  );
  return { databaseBytes: Number(row?.size ?? 0), freeBytes: 0, autoVacuum: null };
}

/** Gives up to `pages` free pages back to the file system (SQLite with auto_vacuum=INCREMENTAL); returns bytes freed. */
export async function incrementalVacuum(db: Database, pages: number): Promise<number> {
  if (db.provider !== "sqlite") return 0;
  const before = await spaceFacts(db);
  if (before.autoVacuum !== "incremental" || before.freeBytes === 0) return 0;
  await db.client.$queryRawUnsafe(`PRAGMA incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
  return before.databaseBytes - (await spaceFacts(db)).databaseBytes;
}

/** One full VACUUM that switches an existing SQLite file to incremental auto-vacuum (rewrites the file). */
export async function enableIncrementalVacuum(db: Database): Promise<void> {
  if (db.provider !== "sqlite") return;
  await db.client.$executeRawUnsafe(`PRAGMA auto_vacuum = INCREMENTAL`);
  await db.client.$executeRawUnsafe(`VACUUM`);
}
