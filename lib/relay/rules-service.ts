// Breakpoint and fault rules as rows (admin): created, changed, switched off and removed through the API and the
// rules pages; every change is in the in-path audit log with who and when. The relay reads the enabled rules inside
// each delivery's own transaction (lib/ingest/relay-batch.ts), so a change applies to the next result, in every process.
import "server-only";
import { getDatabase } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import {
  breakpointView,
  createBreakpoint,
  createFault,
  deleteBreakpoint,
  deleteFault,
  faultView,
  findInterventions,
  listBreakpoints,
  listFaults,
  recordChange,
  updateBreakpoint,
  updateFault,
  type BreakpointData,
  type FaultData,
} from "../intercept/rules-repository.ts";
import {
  DEFAULT_HOLD_TIMEOUT_MS,
  type BreakpointInput,
  type BreakpointRuleView,
  type FaultInput,
  type FaultRuleView,
  type InterventionView,
} from "../intercept/schemas.ts";
import { findRelayTarget } from "./targets.ts";

function checkRelay(relay: string | null | undefined): void {
  if (relay) findRelayTarget(relay);
}

function breakpointData(input: Partial<BreakpointInput>): Partial<BreakpointData> {
  const data: Partial<BreakpointData> = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.enabled !== undefined) data.enabled = input.enabled;
  if (input.relay !== undefined) data.relay = input.relay;
  if (input.tool !== undefined) data.toolName = input.tool;
  if (input.thread !== undefined) data.groupPattern = input.thread;
  if (input.text_contains !== undefined) data.textContains = input.text_contains;
  if (input.confidence_below !== undefined) data.confidenceBelow = input.confidence_below;
  if (input.success_false !== undefined) data.successFalse = input.success_false;
  if (input.error !== undefined) data.errorOnly = input.error;
  if (input.next_action !== undefined) data.nextAction = input.next_action;
  if (input.timeout_ms !== undefined) data.timeoutMs = input.timeout_ms;
  if (input.on_timeout !== undefined) data.onTimeout = input.on_timeout;
  return data;
}

function faultData(input: Partial<FaultInput>): Partial<FaultData> {
  const data: Partial<FaultData> = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.enabled !== undefined) data.enabled = input.enabled;
  if (input.relay !== undefined) data.relay = input.relay;
  if (input.tool !== undefined) data.toolName = input.tool;
  if (input.thread !== undefined) data.groupPattern = input.thread;
  if (input.action !== undefined) data.action = input.action;
  if (input.probability !== undefined) data.probability = input.probability;
  if (input.delay_ms !== undefined) data.delayMs = input.delay_ms;
  if (input.error_text !== undefined) data.errorText = input.error_text;
  return data;
}

export async function getBreakpoints(): Promise<BreakpointRuleView[]> {
  const db = await getDatabase();
  return (await listBreakpoints(db.client)).map(breakpointView);
}

export async function addBreakpoint(options: { input: BreakpointInput; by: string }): Promise<BreakpointRuleView> {
  checkRelay(options.input.relay);
  const db = await getDatabase();
  const at = new Date();
  const data = breakpointData(options.input);
  const row = await createBreakpoint(db.client, {
    name: options.input.name,
    enabled: data.enabled ?? true,
    relay: data.relay ?? null,
    toolName: data.toolName ?? null,
    groupPattern: data.groupPattern ?? null,
    textContains: data.textContains ?? null,
    confidenceBelow: data.confidenceBelow ?? null,
    successFalse: data.successFalse ?? false,
    errorOnly: data.errorOnly ?? false,
    nextAction: data.nextAction ?? null,
    timeoutMs: data.timeoutMs ?? DEFAULT_HOLD_TIMEOUT_MS,
    onTimeout: data.onTimeout ?? "release",
    by: options.by,
    at,
  });
  await recordChange(db.client, {
    actor: options.by,
    action: "breakpoint_created",
    detail: { rule: row.id, ...options.input },
    at,
  });
  return breakpointView(row);
}

export async function changeBreakpoint(options: {
  id: number;
  input: Partial<BreakpointInput>;
  by: string;
}): Promise<BreakpointRuleView> {
  checkRelay(options.input.relay);
  const db = await getDatabase();
  const row = await updateBreakpoint(db.client, options.id, breakpointData(options.input), options.by);
  if (!row) throw new AppError("not_found", `No breakpoint ${options.id}`);
  await recordChange(db.client, {
    actor: options.by,
    action: "breakpoint_changed",
    detail: { rule: row.id, ...options.input },
    at: new Date(),
  });
  return breakpointView(row);
}

export async function removeBreakpoint(options: { id: number; by: string }): Promise<void> {
  const db = await getDatabase();
  if (!(await deleteBreakpoint(db.client, options.id))) throw new AppError("not_found", `No breakpoint ${options.id}`);
  await recordChange(db.client, {
    actor: options.by,
    action: "breakpoint_removed",
    detail: { rule: options.id },
    at: new Date(),
  });
}

export async function getFaults(): Promise<FaultRuleView[]> {
  const db = await getDatabase();
  return (await listFaults(db.client)).map(faultView);
}

export async function addFault(options: { input: FaultInput; by: string }): Promise<FaultRuleView> {
  checkRelay(options.input.relay);
  if (options.input.action === "delay" && !options.input.delay_ms)
    throw new AppError("invalid", "delay_ms: a delay rule needs how long to delay (ms)", { path: "delay_ms" });
  const db = await getDatabase();
  const at = new Date();
  const data = faultData(options.input);
  const row = await createFault(db.client, {
    name: options.input.name,
    enabled: data.enabled ?? true,
    relay: data.relay ?? null,
    toolName: data.toolName ?? null,
    groupPattern: data.groupPattern ?? null,
    action: options.input.action,
    probability: options.input.probability,
    delayMs: data.delayMs ?? null,
    errorText: data.errorText ?? null,
    by: options.by,
    at,
  });
  await recordChange(db.client, {
    actor: options.by,
    action: "fault_created",
    detail: { rule: row.id, ...options.input },
    at,
  });
  return faultView(row);
}

export async function changeFault(options: {
  id: number;
  input: Partial<FaultInput>;
  by: string;
}): Promise<FaultRuleView> {
  checkRelay(options.input.relay);
  const db = await getDatabase();
  const row = await updateFault(db.client, options.id, faultData(options.input), options.by);
  if (!row) throw new AppError("not_found", `No fault rule ${options.id}`);
  await recordChange(db.client, {
    actor: options.by,
    action: "fault_changed",
    detail: { rule: row.id, ...options.input },
    at: new Date(),
  });
  return faultView(row);
}

export async function removeFault(options: { id: number; by: string }): Promise<void> {
  const db = await getDatabase();
  if (!(await deleteFault(db.client, options.id))) throw new AppError("not_found", `No fault rule ${options.id}`);
  await recordChange(db.client, {
    actor: options.by,
    action: "fault_removed",
    detail: { rule: options.id },
    at: new Date(),
  });
}

/** The in-path audit log, newest first: every hold, decision, answer, injected fault and rule change. */
export async function getInterventions(
  filter: { toolCallId?: number; groupId?: string; limit?: number } = {},
): Promise<InterventionView[]> {
  const db = await getDatabase();
  return findInterventions(db.client, { ...filter, limit: filter.limit ?? 100 });
}
