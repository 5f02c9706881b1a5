// The in-path API's shapes (client-safe): relay targets as configured, answers, approvals, hold decisions.
import { z } from "zod";
import { RELAY_MODES } from "../ingest/relay-modes.ts";
import { displaySegmentSchema } from "../ingest/schemas.ts";
import type { InterventionView } from "../intercept/schemas.ts";
import type { OutboxAttemptView, OutboxMessageView } from "../outbox/schemas.ts";

export { RELAY_MODES };
export type RelayMode = (typeof RELAY_MODES)[number];

export const RELAY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const DEFAULT_RELAY_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_ATTEMPTS = 50;
export const DEFAULT_MAX_AGE_MS = 24 * 3_600_000;

/** One entry of TOOLSCOPE_RELAYS. */
export const relayTargetSchema = z.strictObject({
  name: z.string().regex(RELAY_NAME, "letters, digits, . _ - (at most 64), starting with a letter or digit"),
  url: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//i.test(value), "must be an http(s) URL")
    .refine((value) => {
      const url = new URL(value);
      return url.username === "" && url.password === "";
    }, "must not carry a user or password (name a secretEnv instead)"),
  secretEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/i, "an environment variable's name")
    .optional(),
  mode: z.enum(RELAY_MODES),
  timeoutMs: z.number().int().min(100).max(60_000).optional(),
  maxAttempts: z.number().int().min(1).max(10_000).optional(),
  maxAgeMs: z.number().int().min(1_000).optional(),
});
export type RelayTarget = z.infer<typeof relayTargetSchema>;

/** A target as pages and GET /api/relays show it: the name of its secret's variable, never the secret. */
export type RelayTargetView = {
  name: string;
  url: string;
  mode: RelayMode;
  secretEnv: string | null;
  secretState: "set" | "missing" | "not_needed";
  timeoutMs: number;
  maxAttempts: number;
  maxAgeMs: number;
};
export type RelayTargetsReply = { problem: string | null; targets: RelayTargetView[] };

export const HOLD_ACTIONS = ["release", "edit", "error", "drop"] as const;

export const holdDecisionSchema = z.strictObject({
  action: z.enum(HOLD_ACTIONS),
  text: z
    .string()
    .max(16 * 1024 * 1024)
    .optional()
    .describe("edit: the new result text"),
  envelope: z.record(z.string(), z.unknown()).optional().describe("edit: fields merged into the JSON envelope"),
  display_as: z
    .array(displaySegmentSchema)
    .nullable()
    .optional()
    .describe("edit: new display segments (null removes them)"),
  error: z.string().min(1).max(10_000).optional().describe("error: the message (delivered as `Error: <message>`)"),
});
export type HoldDecision = z.infer<typeof holdDecisionSchema>;

export const answerSchema = z.strictObject({
  from: z.enum(["hand", "recording", "error"]),
  text: z
    .string()
    .max(16 * 1024 * 1024)
    .optional(),
  display_as: z.array(displaySegmentSchema).optional(),
  error: z.string().min(1).max(10_000).optional(),
  recording: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("from recording: the result id to answer with (default: the newest match)"),
  relay: z.string().regex(RELAY_NAME).optional().describe("The relay target to deliver to (default: the thread's)"),
});
export type AnswerInput = z.infer<typeof answerSchema>;

export type RecordedAnswer = {
  resultId: number;
  callRowId: number;
  groupId: string;
  callKey: string;
  receivedAt: string;
  textHead: string;
  textBytes: number;
};

export type AnswerReply = {
  status: "answered";
  group_id: string;
  id: string;
  result_id: number;
  answered_by: string;
  relay: { target: string; message_id: number; webhook_id: string; state: string } | null;
  /** Why it was recorded but not delivered (no relay target known for the thread). */
  not_delivered: string | null;
};

export type HeldResultView = {
  id: number;
  status: string;
  ruleId: number | null;
  ruleName: string;
  relay: string;
  groupId: string;
  callKey: string;
  toolCallId: number | null;
  toolName: string | null;
  heldAt: string;
  timeoutAt: string;
  onTimeout: string;
  decidedAt: string | null;
  decidedBy: string | null;
  messageId: number;
  /** The text the tool sent (masked), and the text delivered instead when it changed. */
  originalText: string;
  deliveredText: string | null;
  originalDisplayAs: unknown;
  deliveredDisplayAs: unknown;
  change: unknown;
};

export type HeldPage = { generatedAt: string; held: HeldResultView[]; decided: HeldResultView[]; heldCount: number };

export const APPROVAL_STATUSES = ["pending", "approved", "denied", "expired"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;

export const approvalRequestSchema = z.strictObject({
  group_id: z.string().min(1).max(512),
  id: z.string().min(1).max(512),
  name: z.string().min(1).max(256).describe("The tool the runtime wants to run"),
  arguments: z
    .union([z.string().max(1024 * 1024), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .optional()
    .describe("The arguments as text, or JSON"),
  timeout_ms: z
    .number()
    .int()
    .min(1_000)
    .max(24 * 3_600_000)
    .optional()
    .describe("After this the request expires (default 10 minutes)"),
  relay: z.string().regex(RELAY_NAME).optional().describe("Also deliver the decision to this relay target, signed"),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

export const approvalDecisionSchema = z.strictObject({
  decision: z.enum(["approve", "deny"]),
  reason: z.string().min(1).max(10_000).optional(),
  arguments: z
    .string()
    .max(1024 * 1024)
    .optional()
    .describe("approve: the arguments to run the tool with instead"),
});
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

export const approvalRuleSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  tool: z.string().min(1).max(256).describe("Tool name, exact or with * wildcards: its requests are approved at once"),
  enabled: z.boolean().optional(),
});

/** GET /api/approvals/{id}: what a runtime waits for. */
export type ApprovalState = {
  approval_id: number;
  status: ApprovalStatus;
  group_id: string;
  id: string;
  name: string;
  /** The arguments to run with: as requested, or as the person edited them. */
  arguments?: string;
  arguments_edited?: boolean;
  reason?: string;
  decided_by?: string;
  decided_at?: string;
  timeout_at: string;
};

export type ApprovalView = {
  id: number;
  groupId: string;
  callKey: string;
  toolName: string;
  argumentsText: string;
  relay: string | null;
  requestedAt: string;
  requestedBy: string;
  timeoutAt: string;
  status: ApprovalStatus;
  decidedAt: string | null;
  decidedBy: string | null;
  reason: string | null;
  editedArguments: string | null;
  /** The registered call this approval is about, when Toolscope knows it. */
  callRowId: number | null;
};

export type ApprovalRuleView = {
  id: number;
  name: string;
  toolName: string;
  enabled: boolean;
  createdAt: string;
  createdBy: string;
};

export type ApprovalsPage = {
  generatedAt: string;
  pending: ApprovalView[];
  decided: ApprovalView[];
  rules: ApprovalRuleView[];
};

/** A call's way to the runtime: its outgoing messages and attempts, holds, approvals, the audit log. */
export type CallInPath = {
  generatedAt: string;
  outbox: { message: OutboxMessageView; attempts: OutboxAttemptView[] }[];
  held: HeldResultView[];
  approvals: ApprovalView[];
  interventions: InterventionView[];
  /** The relay target an answer would go to (the thread's), and the ones configured. */
  threadRelay: string | null;
  relays: string[];
  answerable: boolean;
};
