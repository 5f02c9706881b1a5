// One hold decision as one transaction on the driver connection: compare-and-set the hold, let its outbox message
// go on (or drop it), append the audit-log row. The body the decision delivers is computed by the caller from the
// bytes the tool sent (pure, holds-service.ts).
import "server-only";
import type { DriverConnection } from "../db/driver.ts";
import { sql } from "../db/sql.ts";
import { decideHoldRow, insertInterventions } from "../intercept/repository.ts";
import { releaseHeld } from "../outbox/repository.ts";

export type DecidedBody = {
  body: Uint8Array | null;
  status: string;
  drop: boolean;
  change: Record<string, unknown> | null;
};

export async function applyHoldDecision(
  tx: DriverConnection,
  options: { id: number; by: string; now: Date; action: string; decide: (original: Uint8Array) => DecidedBody },
): Promise<boolean> {
  const rows = await tx.query<{ originalBody: Uint8Array }[]>(
    sql`SELECT "originalBody" FROM "HeldResult" WHERE "id" = ${options.id} AND "status" = 'held'`,
  );
  const original = rows[0]?.originalBody;
  if (!original) return false;
  const { body, status, drop, change } = options.decide(Buffer.from(original));
  const hold = await decideHoldRow(tx, {
    id: options.id,
    status,
    by: options.by,
    at: options.now,
    deliveredBody: body,
    change,
  });
  if (!hold) return false;
  await releaseHeld(tx, { id: hold.messageId, body, drop, now: options.now });
  await insertInterventions(tx, [
    {
      at: options.now,
      actor: options.by,
      action: options.action,
      groupId: hold.groupId,
      callKey: hold.callKey,
      toolCallId: hold.toolCallId,
      messageId: hold.messageId,
      holdId: hold.id,
      approvalId: null,
      detail: change,
    },
  ]);
  return true;
}

/** Holds whose time ran out (oldest first). */
export { findExpiredHolds } from "../intercept/repository.ts";
