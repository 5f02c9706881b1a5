// Approvals: a runtime asks before it runs a tool (POST /api/approvals), waits (GET …?wait=30, a long poll), and a
// person approves, denies (with a reason) or edits the arguments — or a rule approves the tool at once, or the
// request expires. Every decision is a compare-and-set on the row, marked in the audit log with who and when, and
// (when the request named a relay target) delivered to the runtime as a signed webhook through the outbox.
import "server-only";
import { EventEmitter } from "node:events";
import { maskDto } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { wildcardMatches } from "../intercept/match.ts";
import type { NewOutboxMessage } from "../outbox/repository.ts";
import { wakeOutbox } from "../outbox/service.ts";
import { newWebhookId } from "../outbox/sign.ts";
import {
  auditDecision,
  createApprovalRule,
  decideApprovalRow,
  deleteApprovalRule,
  enqueueDecision,
  findApproval,
  findApprovalRules,
  findApprovals,
  findCallRows,
  findOverdueApprovals,
  insertApproval,
  type StoredApproval,
} from "./approvals-repository.ts";
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalRuleView,
  type ApprovalsPage,
  type ApprovalState,
  type ApprovalStatus,
  type ApprovalView,
} from "./schemas.ts";
import { findRelayTarget } from "./targets.ts";

/** Decisions made in this process wake its long polls at once; other processes' are seen within POLL_MS. */
const decided = new EventEmitter().setMaxListeners(0);
const POLL_MS = 250;
export const MAX_WAIT_SECONDS = 60;

function stateOf(row: StoredApproval): ApprovalState {
  const state: ApprovalState = {
    approval_id: row.id,
    status: row.status as ApprovalStatus,
    group_id: row.groupId,
    id: row.callKey,
    name: row.toolName,
    timeout_at: row.timeoutAt.toISOString(),
  };
  if (row.status === "approved") {
    state.arguments = row.editedArguments ?? row.argumentsText;
    state.arguments_edited = row.editedArguments !== null;
  }
  if (row.reason !== null) state.reason = row.reason;
  if (row.decidedBy !== null) state.decided_by = row.decidedBy;
  if (row.decidedAt !== null) state.decided_at = row.decidedAt.toISOString();
  return state;
}

function decisionMessage(row: StoredApproval, now: Date): NewOutboxMessage | null {
  if (row.relay === null) return null;
  const body = Buffer.from(JSON.stringify({ type: "approval_decision", ...stateOf(row) }), "utf8");
  return {
    createdAt: now,
    kind: "approval",
    destination: `relay:${row.relay}`,
    orderKey: JSON.stringify(["approval", row.relay, row.groupId, row.callKey]),
    webhookId: newWebhookId(),
    contentType: "application/json",
    body,
    status: "pending",
    nextAttemptAt: now,
    leaseOwner: null,
    leaseUntil: null,
    groupId: row.groupId,
    callKey: row.callKey,
    toolCallId: null,
    fault: null,
  };
}

function argumentsText(value: ApprovalRequest["arguments"]): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** POST /api/approvals: 201 with the approval's state (approved at once when a rule covers the tool). */
export async function requestApproval(options: { request: ApprovalRequest; by: string }): Promise<ApprovalState> {
  const { request } = options;
  if (request.relay !== undefined) findRelayTarget(request.relay); // 404 unknown_relay before anything is stored
  const db = await getDatabase();
  const now = new Date();
  const rule = (await findApprovalRules(db.client, true)).find((candidate) =>
    wildcardMatches(candidate.toolName, request.name),
  );
  const row: Omit<StoredApproval, "id"> = {
    groupId: request.group_id,
    callKey: request.id,
    toolName: request.name,
    argumentsText: argumentsText(request.arguments),
    relay: request.relay ?? null,
    requestedAt: now,
    requestedBy: options.by,
    timeoutAt: new Date(now.getTime() + (request.timeout_ms ?? DEFAULT_APPROVAL_TIMEOUT_MS)),
    status: rule ? "approved" : "pending",
    decidedAt: rule ? now : null,
    decidedBy: rule ? `rule:${rule.name}` : null,
    reason: null,
    editedArguments: null,
  };
  const id = await db.driverTransaction(
    async (tx) => {
      const inserted = await insertApproval(tx, row);
      await auditDecision(tx, {
        at: now,
        actor: rule ? `rule:${rule.name}` : options.by,
        action: rule ? "auto_approve" : "approval_requested",
        groupId: row.groupId,
        callKey: row.callKey,
        toolCallId: null,
        messageId: null,
        holdId: null,
        approvalId: inserted,
        detail: { tool: row.toolName },
      });
      if (rule) await enqueueDecision(tx, decisionMessage({ ...row, id: inserted }, now));
      return inserted;
    },
    { ordered: false },
  );
  if (rule && row.relay) wakeOutbox();
  return stateOf({ ...row, id });
}

async function readApproval(db: Database, id: number): Promise<StoredApproval> {
  const row = await findApproval(db.client, id);
  if (!row) throw new AppError("not_found", `No approval ${id}`);
  return row;
}

/** GET /api/approvals/{id}?wait=N: the state now, or when it is decided, whichever comes first within N s. */
export async function getApprovalState(options: { id: number; waitSeconds: number }): Promise<ApprovalState> {
  const db = await getDatabase();
  const until = Date.now() + Math.min(MAX_WAIT_SECONDS, Math.max(0, options.waitSeconds)) * 1000;
  for (;;) {
    let row = await readApproval(db, options.id);
    if (row.status === "pending" && row.timeoutAt.getTime() <= Date.now()) {
      await expireOne(db, row.id);
      row = await readApproval(db, options.id);
    }
    const left = Math.min(until, row.timeoutAt.getTime() + 1) - Date.now();
    if (row.status !== "pending" || left <= 0) return stateOf(row);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        decided.off(String(options.id), done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(POLL_MS, left));
      decided.on(String(options.id), done);
    });
  }
}

async function decide(
  db: Database,
  options: {
    id: number;
    status: ApprovalStatus;
    by: string;
    reason: string | null;
    editedArguments: string | null;
    action: string;
  },
): Promise<boolean> {
  const now = new Date();
  // Read before the transaction: on SQLite the model client shares the one connection the transaction holds.
  const before = await findApproval(db.client, options.id);
  const done = await db.driverTransaction(
    async (tx) => {
      const changed = await decideApprovalRow(tx, { ...options, at: now });
      if (!changed) return false;
      const current: StoredApproval | null = before
        ? {
            ...before,
            status: options.status,
            decidedBy: options.by,
            decidedAt: now,
            reason: options.reason,
            editedArguments: options.editedArguments,
          }
        : null;
      if (current) await enqueueDecision(tx, decisionMessage(current, now));
      await auditDecision(tx, {
        at: now,
        actor: options.by,
        action: options.action,
        groupId: current?.groupId ?? null,
        callKey: current?.callKey ?? null,
        toolCallId: null,
        messageId: null,
        holdId: null,
        approvalId: options.id,
        detail: { reason: options.reason ?? undefined, argumentsEdited: options.editedArguments !== null },
      });
      return true;
    },
    { ordered: false },
  );
  if (done) {
    decided.emit(String(options.id));
    wakeOutbox();
  }
  return done;
}

async function expireOne(db: Database, id: number): Promise<boolean> {
  return decide(db, {
    id,
    status: "expired",
    by: "timeout",
    reason: "nobody decided in time",
    editedArguments: null,
    action: "expire",
  });
}

/** A person decides: 404 when there is none, 409 when it was decided (or expired) already. */
export async function decideApproval(options: {
  id: number;
  decision: ApprovalDecision;
  by: string;
}): Promise<ApprovalState> {
  const db = await getDatabase();
  const existing = await readApproval(db, options.id);
  if (existing.status === "pending" && existing.timeoutAt.getTime() <= Date.now()) await expireOne(db, existing.id);
  const { decision } = options.decision;
  const edited =
    decision === "approve" &&
    options.decision.arguments !== undefined &&
    options.decision.arguments !== existing.argumentsText
      ? options.decision.arguments
      : null;
  const done = await decide(db, {
    id: options.id,
    status: decision === "approve" ? "approved" : "denied",
    by: options.by,
    reason: options.decision.reason ?? null,
    editedArguments: edited,
    action: decision === "approve" ? (edited === null ? "approve" : "approve_edited") : "deny",
  });
  const row = await readApproval(db, options.id);
  if (!done)
    throw new AppError(
      "conflict",
      `Approval ${options.id} is already ${row.status}${row.decidedBy ? ` (by ${row.decidedBy})` : ""}`,
    );
  return stateOf(row);
}

/** Expires every pending approval past its time (the server's sweep). */
export async function expireApprovals(options: { database?: Database } = {}): Promise<number> {
  const db = options.database ?? (await getDatabase());
  const ids = await db.driverTransaction((tx) => findOverdueApprovals(tx, new Date()), { ordered: false });
  let expired = 0;
  for (const id of ids) if (await expireOne(db, id)) expired += 1;
  return expired;
}

function view(row: StoredApproval, callRowId: number | null): ApprovalView {
  return {
    ...row,
    status: row.status as ApprovalStatus,
    requestedAt: row.requestedAt.toISOString(),
    timeoutAt: row.timeoutAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    callRowId,
  };
}

function ruleView(rule: {
  id: number;
  name: string;
  toolName: string;
  enabled: boolean;
  createdAt: Date;
  createdBy: string;
}): ApprovalRuleView {
  return { ...rule, createdAt: rule.createdAt.toISOString() };
}

/** The Approvals page: pending requests (oldest first), the last 50 decided, the auto-approve rules. Masked. */
export async function getApprovalsPage(filter: { groupId?: string; callKey?: string } = {}): Promise<ApprovalsPage> {
  const db = await getDatabase();
  const [pending, decidedRows, rules] = await Promise.all([
    findApprovals(db.client, { pending: true, ...filter, limit: 200 }),
    findApprovals(db.client, { pending: false, ...filter, limit: 50 }),
    findApprovalRules(db.client, false),
  ]);
  const calls = await findCallRows(
    db.client,
    [...pending, ...decidedRows].map((row) => ({ groupId: row.groupId, callKey: row.callKey })),
  );
  const callOf = (row: StoredApproval) => calls.get(JSON.stringify([row.groupId, row.callKey])) ?? null;
  return maskDto({
    generatedAt: new Date().toISOString(),
    pending: pending.map((row) => view(row, callOf(row))),
    decided: decidedRows.map((row) => view(row, callOf(row))),
    rules: rules.map(ruleView),
  }).value;
}

export async function addApprovalRule(options: {
  name: string;
  tool: string;
  enabled?: boolean;
  by: string;
}): Promise<ApprovalRuleView> {
  const db = await getDatabase();
  return ruleView(
    await createApprovalRule(db.client, {
      name: options.name,
      toolName: options.tool,
      enabled: options.enabled ?? true,
      createdBy: options.by,
      createdAt: new Date(),
    }),
  );
}

export async function removeApprovalRule(id: number): Promise<void> {
  const db = await getDatabase();
  if (!(await deleteApprovalRule(db.client, id))) throw new AppError("not_found", `No approval rule ${id}`);
}
