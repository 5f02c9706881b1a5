// SQL for the data lifecycle: which threads retention removes, removing one thread in small steps (every
// model that hangs off a thread: deliveries, OTel traces and spans, events, results, calls, fork runs and
// turns, the thread), orphans (refused deliveries of no thread, spans of no trace, unused scopes), and the
// figures of the storage view. Every DELETE takes at most CHUNK rows, so no transaction stalls ingestion.
import "server-only";
import type { Database, ModelClient } from "../db/client.ts";
import { Prisma } from "../db/generated/sqlite/client.ts";
import { sql, type Sql } from "../db/sql.ts";

export const CHUNK = 500;

export type ThreadRow = { id: number; groupId: string; lastActivityAt: Date; estimatedBytes?: number };

type RawThread = { id: number | bigint; groupId: string; lastActivityAt: Date | string | number };
const toThread = (row: RawThread): ThreadRow => ({
  id: Number(row.id),
  groupId: row.groupId,
  lastActivityAt: new Date(row.lastActivityAt),
});

/** Threads whose last activity is before `cutoff`, oldest first. */
export async function expiredThreads(db: ModelClient, cutoff: Date, limit: number): Promise<ThreadRow[]> {
  const rows = await db.$queryRaw<RawThread[]>(
    sql`SELECT "id", "groupId", "lastActivityAt" FROM "Thread" WHERE "lastActivityAt" < ${cutoff} ORDER BY "lastActivityAt", "id" LIMIT ${limit}`,
  );
  return rows.map(toThread);
}

/** The oldest threads (by last activity), for size-based retention. */
export async function oldestThreads(db: ModelClient, limit: number, offset = 0): Promise<ThreadRow[]> {
  const rows = await db.$queryRaw<RawThread[]>(
    sql`SELECT "id", "groupId", "lastActivityAt" FROM "Thread" ORDER BY "lastActivityAt", "id" LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map(toThread);
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

// Each step deletes up to CHUNK rows of one kind, and only while the thread is still as old as when it was
// chosen: a result arriving meanwhile updates lastActivityAt in its own transaction, and the removal stops.
function threadSteps(thread: ThreadRow): { table: string; where: Sql }[] {
  const stillExpired = sql`EXISTS (SELECT 1 FROM "Thread" t0 WHERE t0."id" = ${thread.id} AND t0."lastActivityAt" <= ${thread.lastActivityAt})`;
  return [
    { table: "Delivery", where: sql`"groupId" = ${thread.groupId} AND ${stillExpired}` },
    {
      table: "OtelSpan",
      where: sql`"traceId" IN (SELECT "traceId" FROM "OtelTrace" WHERE "groupId" = ${thread.groupId}) AND ${stillExpired}`,
    },
    { table: "OtelTrace", where: sql`"groupId" = ${thread.groupId} AND ${stillExpired}` },
    { table: "Event", where: sql`"threadId" = ${thread.id} AND ${stillExpired}` },
    {
      table: "ToolResult",
      where: sql`"toolCallId" IN (SELECT "id" FROM "ToolCall" WHERE "threadId" = ${thread.id}) AND ${stillExpired}`,
    },
    { table: "ToolCall", where: sql`"threadId" = ${thread.id} AND ${stillExpired}` },
    {
      table: "ModelTurn",
      where: sql`"forkRunId" IN (SELECT "id" FROM "ForkRun" WHERE "threadId" = ${thread.id}) AND ${stillExpired}`,
    },
    { table: "ForkRun", where: sql`"threadId" = ${thread.id} AND ${stillExpired}` },
    // Forks made from this thread stay (they are threads of their own); their link is cleared by the FK.
    { table: "Thread", where: sql`"id" = ${thread.id} AND "lastActivityAt" <= ${thread.lastActivityAt}` },
  ];
}

function chunkDelete(table: string, where: Sql): Sql {
  const name = Prisma.raw(`"${table}"`);
  const key = table === "OtelScope" ? Prisma.raw(`"sha256"`) : Prisma.raw(`"id"`);
  return sql`DELETE FROM ${name} WHERE ${key} IN (SELECT ${key} FROM ${name} WHERE ${where} LIMIT ${CHUNK})`;
}

/** One small step of removing `thread`: `{table, deleted}`, or null when nothing of it is left (or it came back to life). */
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
