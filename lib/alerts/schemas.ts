// Alert rules, alerts and notify destinations as the API takes and shows them (client-safe): the same zod schemas
// validate the routes, type the pages and feed the OpenAPI document.
import { z } from "zod";

/** Conditions checked inside the transaction that commits a result. */
export const RESULT_EVENTS = [
  "result_errored",
  "envelope_failed",
  "low_confidence",
  "next_action",
  "slow_call",
  "error_rate",
] as const;
/** Conditions that become true with time (or on any way in): the alerts sweeper checks them by index. */
export const SWEPT_EVENTS = ["call_timed_out", "pending_too_long", "waiting_for_person", "new_tool"] as const;
export const ALERT_EVENTS = [...RESULT_EVENTS, ...SWEPT_EVENTS] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export const DESTINATION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const NOTIFY_FORMATS = ["webhook", "slack"] as const;
export const DEFAULT_COOLDOWN_MS = 5 * 60_000;
export const MAX_SAMPLE_CALLS = 20;
const HOUR = 3_600_000;

/** One entry of TOOLSCOPE_NOTIFY. */
export const notifyDestinationSchema = z.strictObject({
  name: z.string().regex(DESTINATION_NAME, "letters, digits, . _ - (at most 64), starting with a letter or digit"),
  url: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//i.test(value), "must be an http(s) URL")
    .refine((value) => {
      const url = new URL(value);
      return url.username === "" && url.password === "";
    }, "must not carry a user or password (name a secretEnv instead)"),
  format: z.enum(NOTIFY_FORMATS),
  secretEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/i, "an environment variable's name")
    .optional(),
  timeoutMs: z.number().int().min(100).max(60_000).optional(),
  maxAttempts: z.number().int().min(1).max(10_000).optional(),
});
export type NotifyDestination = z.infer<typeof notifyDestinationSchema>;

const scope = {
  tool: z.string().min(1).max(256).optional().describe("Tool name, exact or with * wildcards"),
  thread: z.string().min(1).max(512).optional().describe("The thread's group_id, exact or with * wildcards"),
};
const duration = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * HOUR)
    .describe(what);

export const alertConditionSchema = z.discriminatedUnion("event", [
  z.strictObject({ event: z.literal("result_errored"), ...scope }).describe("A result is an error"),
  z.strictObject({ event: z.literal("envelope_failed"), ...scope }).describe("A result envelope says success: false"),
  z.strictObject({
    event: z.literal("low_confidence"),
    ...scope,
    below: z.number().min(0).max(1).describe("The envelope's confidence is below this"),
  }),
  z.strictObject({
    event: z.literal("next_action"),
    ...scope,
    equals: z.string().min(1).max(64).describe("The envelope's nextAction equals this (ask_user, human_review, stop…)"),
  }),
  z.strictObject({
    event: z.literal("slow_call"),
    ...scope,
    above_ms: duration("The call's latency (meta.durationMs, else result − request) is above this"),
  }),
  z.strictObject({
    event: z.literal("error_rate"),
    ...scope,
    above_percent: z.number().min(0).max(100).describe("Errored results of one tool, in percent"),
    window_ms: z
      .number()
      .int()
      .min(10_000)
      .max(24 * HOUR)
      .describe("The sliding window the rate is counted over"),
    min_count: z.number().int().min(1).max(1_000_000).describe("Results the window must hold before the rate counts"),
  }),
  z.strictObject({ event: z.literal("call_timed_out"), ...scope }).describe("A call's deadline passed with no result"),
  z.strictObject({
    event: z.literal("pending_too_long"),
    ...scope,
    above_ms: duration("A call has waited for its result longer than this"),
  }),
  z.strictObject({
    event: z.literal("waiting_for_person"),
    ...scope,
    above_ms: duration("A held result or an approval request has waited for a person longer than this"),
  }),
  z.strictObject({ event: z.literal("new_tool"), ...scope }).describe("A call of a tool name never seen before"),
]);
export type AlertCondition = z.infer<typeof alertConditionSchema>;

export const alertRuleInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  enabled: z.boolean().optional(),
  when: alertConditionSchema,
  notify: z
    .array(z.string().regex(DESTINATION_NAME, "a destination's name (TOOLSCOPE_NOTIFY)"))
    .min(1)
    .max(10)
    .describe("Destination names from TOOLSCOPE_NOTIFY"),
  cooldown_ms: z
    .number()
    .int()
    .min(0)
    .max(24 * HOUR)
    .optional()
    .describe("After a message, what matches for this long is sent as one grouped message (default 5 minutes)"),
  muted_until: z.iso.datetime({ offset: true }).nullable().optional().describe("Send nothing until this instant"),
});
export type AlertRuleInput = z.infer<typeof alertRuleInputSchema>;
export const alertRulePatchSchema = alertRuleInputSchema.partial();
export type AlertRulePatch = z.infer<typeof alertRulePatchSchema>;

/** A call an alert is about (its history row keeps up to MAX_SAMPLE_CALLS of them). */
export type AlertCallRef = {
  groupId: string;
  callKey: string;
  toolCallId: number | null;
  toolName: string | null;
  /** What matched, said shortly ("confidence 0.31", "latency 12.0 s"); never the tool's output. */
  detail: string;
};

export type AlertSummary = { id: number; kind: string; firedAt: string; count: number; title: string };

export type AlertRuleView = {
  id: number;
  name: string;
  enabled: boolean;
  when: AlertCondition;
  /** The condition as a person reads it ("confidence below 0.5 (tool search)"). */
  description: string;
  notify: string[];
  cooldownMs: number;
  mutedUntil: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  lastFiredAt: string | null;
  lastAlert: AlertSummary | null;
  /** Matches counted during the open cooldown window, sent when it ends. */
  heldCount: number;
};

export type AlertDeliveryView = {
  destination: string;
  messageId: number;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
};

export type AlertView = AlertSummary & {
  ruleId: number | null;
  ruleName: string;
  event: string;
  calls: AlertCallRef[];
  destinations: string[];
  deliveries: AlertDeliveryView[];
};

export type AlertHistoryPage = { items: AlertView[]; nextBefore: number | null };
export const alertHistoryQuerySchema = z.strictObject({
  rule: z.coerce.number().int().positive().optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type AlertHistoryQuery = z.infer<typeof alertHistoryQuerySchema>;

export type NotifyDestinationView = {
  name: string;
  url: string;
  format: (typeof NOTIFY_FORMATS)[number];
  secretEnv: string | null;
  secretState: "set" | "missing" | "not_needed";
};
export type NotifyDestinationsReply = { problem: string | null; destinations: NotifyDestinationView[] };
