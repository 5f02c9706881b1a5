// Results held at breakpoints: the Held page's data, a person's decision (release as is, edit, replace with an
// error, drop) and the timeout's. Every decision is a compare-and-set on the hold (a person and the timeout cannot
// both decide), the outbox message goes on (or is dropped) in the same transaction, and the audit log gets a row
// with who and when. The bytes the tool sent stay on the hold and on the delivery's audit row.
import "server-only";
import { maskDto } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { withText } from "../intercept/match.ts";
import { applyHoldDecision, findExpiredHolds, type DecidedBody } from "./hold-decisions-repository.ts";
import { wakeOutbox } from "../outbox/service.ts";
import { countHeld, findHold, findHolds, type HoldFilter, type StoredHold } from "./holds-repository.ts";
import type { HeldPage, HeldResultView, HoldDecision } from "./schemas.ts";

type ParsedMessage = { text: string; display_as?: unknown };

function parseMessage(body: Uint8Array): ParsedMessage {
  try {
    const value: unknown = JSON.parse(Buffer.from(body).toString("utf8"));
    if (typeof value === "object" && value !== null && "text" in value && typeof value.text === "string")
      return { text: value.text, display_as: "display_as" in value ? value.display_as : undefined };
  } catch {
    // fall through
  }
  return { text: Buffer.from(body).toString("utf8") };
}

export function holdView(hold: StoredHold): HeldResultView {
  const original = parseMessage(hold.originalBody);
  const delivered = hold.deliveredBody ? parseMessage(hold.deliveredBody) : null;
  return {
    id: hold.id,
    status: hold.status,
    ruleId: hold.ruleId,
    ruleName: hold.ruleName,
    relay: hold.relay,
    groupId: hold.groupId,
    callKey: hold.callKey,
    toolCallId: hold.toolCallId,
    toolName: hold.toolName,
    heldAt: hold.heldAt.toISOString(),
    timeoutAt: hold.timeoutAt.toISOString(),
    onTimeout: hold.onTimeout,
    decidedAt: hold.decidedAt?.toISOString() ?? null,
    decidedBy: hold.decidedBy,
    messageId: hold.messageId,
    originalText: original.text,
    deliveredText: delivered?.text ?? null,
    originalDisplayAs: original.display_as ?? null,
    deliveredDisplayAs: delivered ? (delivered.display_as ?? null) : null,
    change: hold.changeJson ? (JSON.parse(hold.changeJson) as unknown) : null,
  };
}

/** The Held page: every result held now (oldest first), and the last 50 decided. Masked. */
export async function getHeldPage(filter: Omit<HoldFilter, "status"> = {}): Promise<HeldPage> {
  const db = await getDatabase();
  const [held, decided, heldCount] = await Promise.all([
    findHolds(db.client, { ...filter, status: "held" }, 200),
    findHolds(db.client, { ...filter, status: "decided" }, 50),
    countHeld(db.client, filter.groupId),
  ]);
  return maskDto({
    generatedAt: new Date().toISOString(),
    held: held.map(holdView),
    decided: decided.map(holdView),
    heldCount,
  }).value;
}

export async function getHeld(id: number): Promise<HeldResultView> {
  const db = await getDatabase();
  const hold = await findHold(db.client, id);
  if (!hold) throw new AppError("not_found", `No held result ${id}`);
  return maskDto(holdView(hold)).value;
}

function mergeEnvelope(text: string, patch: Record<string, unknown>): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new AppError(
      "invalid",
      "envelope: the result text is not a JSON object, so it has no envelope; edit its text",
      {
        path: "envelope",
      },
    );
  const merged = { ...parsed, ...patch };
  return /\n\s/.test(text) ? JSON.stringify(merged, null, 2) : JSON.stringify(merged);
}

/** The body a decision delivers (null: as received) and what changed, for the audit log. */
function decidedBody(
  original: Uint8Array,
  decision: HoldDecision,
): { body: Uint8Array | null; status: string; change: Record<string, unknown> | null } {
  const message = parseMessage(original);
  switch (decision.action) {
    case "release":
      return { body: null, status: "released", change: null };
    case "drop":
      return { body: null, status: "dropped", change: null };
    case "error": {
      const text = `Error: ${decision.error ?? "the result was replaced at a breakpoint"}`;
      return { body: withText(original, text, null), status: "replaced", change: { error: text } };
    }
    case "edit": {
      if (decision.text === undefined && decision.envelope === undefined && decision.display_as === undefined)
        throw new AppError("invalid", "edit: give text, envelope or display_as", { path: "action" });
      let text = decision.text ?? message.text;
      if (decision.envelope !== undefined) text = mergeEnvelope(text, decision.envelope);
      const change: Record<string, unknown> = {};
      if (text !== message.text) change.text = true;
      if (decision.envelope !== undefined) change.envelope = decision.envelope;
      if (decision.display_as !== undefined) change.display_as = decision.display_as;
      return { body: withText(original, text, decision.display_as), status: "edited", change };
    }
  }
}

function decisionFor(decision: HoldDecision, timedOut: boolean) {
  return (original: Uint8Array): DecidedBody => {
    const { body, status, change } = decidedBody(original, decision);
    return {
      body,
      status: timedOut ? "timed_out" : status,
      drop: decision.action === "drop",
      change: timedOut ? { ...change, timeout: decision.action } : change,
    };
  };
}

/** A person decides a held result: 404 when there is none, 409 when it was already decided. */
export async function decideHold(options: { id: number; decision: HoldDecision; by: string }): Promise<HeldResultView> {
  const db = await getDatabase();
  const decided = await db.driverTransaction(
    (tx) =>
      applyHoldDecision(tx, {
        id: options.id,
        by: options.by,
        now: new Date(),
        action: options.decision.action,
        decide: decisionFor(options.decision, false),
      }),
    { ordered: false },
  );
  if (!decided) {
    const current = await getHeld(options.id); // 404 when there is none
    throw new AppError(
      "conflict",
      `Held result ${options.id} was already decided (${current.status} by ${current.decidedBy})`,
    );
  }
  wakeOutbox();
  return getHeld(options.id);
}

/** Applies the timeout outcome of every hold whose time ran out. Returns how many. */
export async function sweepExpiredHolds(options: { database?: Database; now?: Date } = {}): Promise<number> {
  const db = options.database ?? (await getDatabase());
  const now = options.now ?? new Date();
  const ids = await db.driverTransaction((tx) => findExpiredHolds(tx, now, 100), { ordered: false });
  let done = 0;
  for (const id of ids) {
    const hold = await findHold(db.client, id);
    if (!hold) continue;
    const decision: HoldDecision =
      hold.onTimeout === "error"
        ? {
            action: "error",
            error: `the result was held at breakpoint "${hold.ruleName}" and nobody decided within ${Math.round((hold.timeoutAt.getTime() - hold.heldAt.getTime()) / 1000)} s`,
          }
        : { action: "release" };
    const applied = await db.driverTransaction(
      (tx) =>
        applyHoldDecision(tx, {
          id,
          by: "timeout",
          now,
          action: `timeout_${decision.action}`,
          decide: decisionFor(decision, true),
        }),
      { ordered: false },
    );
    if (applied) done += 1;
  }
  if (done > 0) wakeOutbox();
  return done;
}
