// SQL of the durable outbox on a transaction's driver connection: enqueue (inside the caller's own transaction, so
// a message exists exactly when what it delivers was stored), claim with a lease, complete attempts, keep each
// key's messages one at a time and in order. Dialect differences: FOR UPDATE SKIP LOCKED (PostgreSQL: several
// processes claim side by side; SQLite has one writer) and how instants come back.
import "server-only";
import { insertEach, insertValues, jsonList } from "../db/bulk-rows.ts";
import type { DriverConnection } from "../db/driver.ts";
import { raw, sql, type Sql, type SqlValue } from "../db/sql.ts";
import { ACTIVE_STATUSES, type OutboxStatus } from "./schemas.ts";

export type NewOutboxMessage = {
  createdAt: Date;
  kind: string;
  destination: string;
  orderKey: string;
  webhookId: string;
  contentType: string;
  body: Uint8Array;
  /** pending and delivering become queued when an earlier message of the key is unfinished. */
  status: "held" | "pending" | "delivering" | "dropped";
  nextAttemptAt: Date;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  groupId: string | null;
  callKey: string | null;
  toolCallId: number | null;
  fault: string | null;
};

export type EnqueuedMessage = { id: number; status: OutboxStatus; webhookId: string };

const MESSAGE_COLUMNS = [
  "createdAt",
  "kind",
  "destination",
  "orderKey",
  "webhookId",
  "contentType",
  "body",
  "status",
  "nextAttemptAt",
  "leaseOwner",
  "leaseUntil",
  "groupId",
  "callKey",
  "toolCallId",
  "fault",
] as const satisfies readonly (keyof NewOutboxMessage)[];

const ACTIVE = raw(ACTIVE_STATUSES.map((status) => `'${status}'`).join(", "));

/** Keys among `keys` that have an unfinished message. */
async function activeKeys(tx: DriverConnection, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await tx.query<{ orderKey: string }[]>(
    sql`SELECT DISTINCT "orderKey" FROM "OutboxMessage" WHERE "orderKey" IN ${jsonList(tx.provider, keys)} AND "status" IN (${ACTIVE})`,
  );
  return new Set(rows.map((row) => row.orderKey));
}

/**
 * Inserts messages inside the caller's transaction, in order; a message whose key already has an unfinished one
 * (stored before, or earlier in `messages`) is queued behind it. Returns each message's id and status.
 */
export async function enqueueOutbox(tx: DriverConnection, messages: NewOutboxMessage[]): Promise<EnqueuedMessage[]> {
  if (messages.length === 0) return [];
  const busy = await activeKeys(tx, [...new Set(messages.map((message) => message.orderKey))]);
  const rows = messages.map((message) => {
    let status: OutboxStatus = message.status;
    if ((status === "pending" || status === "delivering") && busy.has(message.orderKey)) status = "queued";
    if (status !== "dropped") busy.add(message.orderKey);
    const values: Record<(typeof MESSAGE_COLUMNS)[number], SqlValue> = {
      ...message,
      body: Buffer.from(message.body),
      status,
      leaseOwner: status === "delivering" ? message.leaseOwner : null,
      leaseUntil: status === "delivering" ? message.leaseUntil : null,
    };
    return { status, webhookId: message.webhookId, values: MESSAGE_COLUMNS.map((column) => values[column]) };
  });
  const ids =
    tx.provider === "sqlite"
      ? insertEach(
          tx,
          "OutboxMessage",
          MESSAGE_COLUMNS,
          rows.map((row) => row.values),
          "",
        ).map(Number)
      : (
          await insertValues<{ id: number }[]>(
            tx,
            "OutboxMessage",
            MESSAGE_COLUMNS,
            rows.map((row) => row.values),
            `RETURNING "id"`,
          )
        )
          .map((row) => Number(row.id))
          // Serial ids are drawn in row order: ascending, they are the rows' ids in order.
          .sort((a, b) => a - b);
  return rows.map((row, index) => ({ id: ids[index] ?? 0, status: row.status, webhookId: row.webhookId }));
}

export type ClaimedMessage = {
  id: number;
  kind: string;
  destination: string;
  orderKey: string;
  webhookId: string;
  contentType: string;
  body: Buffer;
  attempts: number;
  retryBase: number;
  /** createdAt, or retriedAt when a person retried it: where its age limit counts from. */
  budgetSince: Date;
};

function epochMs(tx: DriverConnection, column: string): Sql {
  return raw(tx.provider === "postgresql" ? `(EXTRACT(EPOCH FROM "${column}") * 1000)::float8` : `"${column}"`);
}

function instant(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  return new Date(String(value));
}

/**
 * Leases up to `limit` due messages to `owner` until `leaseUntil`: pending ones whose time has come, and
 * delivering ones whose lease ran out (their worker died mid-attempt). On PostgreSQL rows another process is
 * claiming are skipped, not waited for.
 */
export async function claimDue(
  tx: DriverConnection,
  options: { owner: string; now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedMessage[]> {
  const skipLocked = tx.provider === "postgresql" ? raw("FOR UPDATE SKIP LOCKED") : raw("");
  const rows = await tx.query<Record<string, unknown>[]>(sql`
    UPDATE "OutboxMessage" SET "status" = 'delivering', "leaseOwner" = ${options.owner}, "leaseUntil" = ${options.leaseUntil}
    WHERE "id" IN (SELECT "id" FROM "OutboxMessage"
      WHERE ("status" = 'pending' AND "nextAttemptAt" <= ${options.now}) OR ("status" = 'delivering' AND "leaseUntil" < ${options.now})
      ORDER BY "nextAttemptAt", "id" LIMIT ${options.limit} ${skipLocked})
    RETURNING "id", "kind", "destination", "orderKey", "webhookId", "contentType", "body", "attempts", "retryBase",
      ${epochMs(tx, "createdAt")} AS "createdAt", ${epochMs(tx, "retriedAt")} AS "retriedAt"`);
  return rows
    .map((row) => ({
      id: Number(row.id),
      kind: String(row.kind),
      destination: String(row.destination),
      orderKey: String(row.orderKey),
      webhookId: String(row.webhookId),
      contentType: String(row.contentType),
      body: Buffer.isBuffer(row.body) ? row.body : Buffer.from(row.body as Uint8Array),
      attempts: Number(row.attempts),
      retryBase: Number(row.retryBase),
      budgetSince: instant(row.retriedAt ?? row.createdAt),
    }))
    .sort((a, b) => a.id - b.id);
}

export type Completion = {
  id: number;
  owner: string;
  orderKey: string;
  destination: string;
  /** The attempt's number (attempts so far + 1). */
  number: number;
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  responseBody: string | null;
  next:
    | { status: "delivered"; at: Date }
    | { status: "pending"; nextAttemptAt: Date }
    | { status: "dead"; at: Date; reason: string };
  /** The message had failed before: a success means its destination is back (see pullForward). */
  recovered: boolean;
};

const ATTEMPT_COLUMNS = [
  "messageId",
  "number",
  "startedAt",
  "durationMs",
  "httpStatus",
  "error",
  "responseBody",
  "worker",
] as const;

/**
 * Records attempts and their outcome. A message whose lease another worker took over meanwhile is left as that
 * worker has it (its attempt is still recorded). Finished messages let the next message of their key go.
 */
export async function completeAttempts(tx: DriverConnection, completions: Completion[], now: Date): Promise<void> {
  if (completions.length === 0) return;
  const attempts = completions.map((c) => [
    c.id,
    c.number,
    c.startedAt,
    c.durationMs,
    c.httpStatus,
    c.error,
    c.responseBody,
    c.owner,
  ]);
  if (tx.provider === "sqlite") insertEach(tx, "OutboxAttempt", ATTEMPT_COLUMNS, attempts, "");
  else await insertValues(tx, "OutboxAttempt", ATTEMPT_COLUMNS, attempts, "");

  const finishedKeys = new Set<string>();
  for (const c of completions) {
    const changed = await tx.execute(sql`
      UPDATE "OutboxMessage" SET "status" = ${c.next.status}, "attempts" = ${c.number}, "lastStatus" = ${c.httpStatus},
        "lastError" = ${c.error}, "leaseOwner" = NULL, "leaseUntil" = NULL,
        "nextAttemptAt" = ${c.next.status === "pending" ? c.next.nextAttemptAt : now},
        "deliveredAt" = ${c.next.status === "delivered" ? c.next.at : null},
        "deadAt" = ${c.next.status === "dead" ? c.next.at : null},
        "deadReason" = ${c.next.status === "dead" ? c.next.reason : null}
      WHERE "id" = ${c.id} AND "status" = 'delivering' AND "leaseOwner" = ${c.owner}`);
    if (changed > 0 && c.next.status !== "pending") finishedKeys.add(c.orderKey);
  }
  await promoteNext(tx, [...finishedKeys]);
  for (const destination of new Set(completions.filter((c) => c.recovered).map((c) => c.destination)))
    await pullForward(tx, destination, now);
}

/**
 * For each key, lets its oldest unfinished message go when it is queued (the ones before it have finished).
 * `keys` null: every key with a queued message (the periodic repair: on PostgreSQL a message enqueued while its
 * predecessor's completion committed can miss that completion's promotion).
 */
export async function promoteNext(tx: DriverConnection, keys: string[] | null): Promise<number> {
  if (keys !== null && keys.length === 0) return 0;
  const scope =
    keys === null
      ? sql`(SELECT "orderKey" FROM "OutboxMessage" WHERE "status" = 'queued')`
      : jsonList(tx.provider, keys);
  return tx.execute(sql`
    UPDATE "OutboxMessage" SET "status" = 'pending' WHERE "status" = 'queued' AND "id" IN (
      SELECT MIN("id") FROM "OutboxMessage" WHERE "orderKey" IN ${scope} AND "status" IN (${ACTIVE}) GROUP BY "orderKey")`);
}

/** A destination answered again after failures: its other messages waiting out a backoff go now, not later. */
async function pullForward(tx: DriverConnection, destination: string, now: Date): Promise<void> {
  await tx.execute(sql`
    UPDATE "OutboxMessage" SET "nextAttemptAt" = ${now}
    WHERE "status" = 'pending' AND "nextAttemptAt" > ${now} AND "destination" = ${destination} AND "attempts" > 0 AND "fault" IS NULL`);
}

/**
 * A held message goes on (with a new body when a person edited it), or is dropped. Returns false when it was not
 * held any more. A released message waits behind an unfinished earlier one of its key.
 */
export async function releaseHeld(
  tx: DriverConnection,
  options: { id: number; body: Uint8Array | null; drop: boolean; now: Date },
): Promise<boolean> {
  const changed = await tx.execute(sql`
    UPDATE "OutboxMessage" SET "status" = ${options.drop ? "dropped" : "queued"}, "nextAttemptAt" = ${options.now}
      ${options.body === null ? raw("") : sql`, "body" = ${options.body}`}
    WHERE "id" = ${options.id} AND "status" = 'held'`);
  if (changed === 0) return false;
  const rows = await tx.query<{ orderKey: string }[]>(
    sql`SELECT "orderKey" FROM "OutboxMessage" WHERE "id" = ${options.id}`,
  );
  await promoteNext(
    tx,
    rows.map((row) => row.orderKey),
  );
  return true;
}

/** A dead message is tried again from the page: a fresh budget, due now (behind its key's unfinished messages). */
export async function retryDead(
  tx: DriverConnection,
  options: { id: number; by: string; now: Date },
): Promise<boolean> {
  const changed = await tx.execute(sql`
    UPDATE "OutboxMessage" SET "status" = 'queued', "nextAttemptAt" = ${options.now}, "retryBase" = "attempts",
      "retriedAt" = ${options.now}, "retriedBy" = ${options.by}, "deadAt" = NULL, "deadReason" = NULL
    WHERE "id" = ${options.id} AND "status" = 'dead'`);
  if (changed === 0) return false;
  const rows = await tx.query<{ orderKey: string }[]>(
    sql`SELECT "orderKey" FROM "OutboxMessage" WHERE "id" = ${options.id}`,
  );
  await promoteNext(
    tx,
    rows.map((row) => row.orderKey),
  );
  return true;
}
