// Breakpoint and fault rules, held results and the in-path audit log as the APIs take and show them. Client-safe:
// the same zod schemas validate the routes, type the pages and feed the OpenAPI document.
import { z } from "zod";

const name = z.string().trim().min(1).max(200);
const optionalText = (max: number) => z.string().min(1).max(max).nullable().optional();

export const HOLD_TIMEOUT_OUTCOMES = ["release", "error"] as const;
export const DEFAULT_HOLD_TIMEOUT_MS = 5 * 60_000;

export const breakpointInputSchema = z.strictObject({
  name,
  enabled: z.boolean().optional(),
  relay: optionalText(64).describe("Only results relayed to this target"),
  tool: optionalText(256).describe("Tool name, exact or with * wildcards"),
  thread: optionalText(512).describe("The thread's group_id, exact or with * wildcards"),
  text_contains: optionalText(10_000).describe("The result text contains this (case-insensitive)"),
  confidence_below: z.number().min(0).max(1).nullable().optional().describe("The envelope's confidence is below this"),
  success_false: z.boolean().optional().describe("The envelope says success: false"),
  error: z.boolean().optional().describe("The result is an error (Error: text, MCP isError, an error envelope)"),
  next_action: optionalText(64).describe("The envelope's nextAction equals this"),
  timeout_ms: z
    .number()
    .int()
    .min(1_000)
    .max(24 * 3_600_000)
    .optional()
    .describe("How long a result is held before its timeout outcome applies (default 5 minutes)"),
  on_timeout: z
    .enum(HOLD_TIMEOUT_OUTCOMES)
    .optional()
    .describe("release: deliver as received; error: deliver an error"),
});
export type BreakpointInput = z.infer<typeof breakpointInputSchema>;
export const breakpointPatchSchema = breakpointInputSchema.partial();

export const FAULT_ACTIONS = ["delay", "duplicate", "drop", "error"] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

export const faultInputSchema = z.strictObject({
  name,
  enabled: z.boolean().optional(),
  relay: optionalText(64),
  tool: optionalText(256),
  thread: optionalText(512),
  action: z.enum(FAULT_ACTIONS),
  probability: z.number().min(0).max(1).describe("The fraction of matching results affected (0–1)"),
  delay_ms: z.number().int().min(1).max(3_600_000).nullable().optional(),
  error_text: optionalText(10_000).describe(
    "The text an error fault delivers (default: an Error: line naming the rule)",
  ),
});
export type FaultInput = z.infer<typeof faultInputSchema>;
export const faultPatchSchema = faultInputSchema.partial();

/** The rule fields matching uses (a stored BreakpointRule or FaultRule row). */
export type RuleScope = { relay: string | null; toolName: string | null; groupPattern: string | null };

export type BreakpointRuleView = RuleScope & {
  id: number;
  name: string;
  enabled: boolean;
  textContains: string | null;
  confidenceBelow: number | null;
  successFalse: boolean;
  errorOnly: boolean;
  nextAction: string | null;
  timeoutMs: number;
  onTimeout: (typeof HOLD_TIMEOUT_OUTCOMES)[number];
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
};

export type FaultRuleView = RuleScope & {
  id: number;
  name: string;
  enabled: boolean;
  action: FaultAction;
  probability: number;
  delayMs: number | null;
  errorText: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
};

export const HOLD_STATUSES = ["held", "released", "edited", "replaced", "dropped", "timed_out"] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

export type InterventionView = {
  id: number;
  at: string;
  actor: string;
  action: string;
  groupId: string | null;
  callKey: string | null;
  toolCallId: number | null;
  messageId: number | null;
  holdId: number | null;
  approvalId: number | null;
  detail: unknown;
};
