// The durable outbox's shapes as the pages and APIs show them (client-safe): messages, their attempts, statuses.
import { z } from "zod";

/**
 * held: waiting for a person (a breakpoint) · queued: an earlier message of its key is unfinished · pending: due at
 * nextAttemptAt · delivering: leased by a worker · delivered · dead: out of attempts or age, or refused for good
 * (retriable from the page) · dropped: never sent (a person or a fault rule dropped it).
 */
export const OUTBOX_STATUSES = ["held", "queued", "pending", "delivering", "delivered", "dead", "dropped"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
/** Statuses of a message not finished yet: a later message of the same key waits behind it. */
export const ACTIVE_STATUSES = ["held", "queued", "pending", "delivering"] as const;

export const outboxQuerySchema = z.object({
  status: z.enum(OUTBOX_STATUSES).optional(),
  destination: z.string().min(1).max(300).optional(),
  group: z.string().min(1).max(512).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.coerce.number().int().min(1).optional().describe("Messages older than this id (paging)"),
});
export type OutboxQuery = z.infer<typeof outboxQuerySchema>;

export type OutboxAttemptView = {
  id: number;
  number: number;
  startedAt: string;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  responseBody: string | null;
  worker: string;
};

export type OutboxMessageView = {
  id: number;
  createdAt: string;
  kind: string;
  destination: string;
  webhookId: string;
  contentType: string;
  bodyBytes: number;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  deadAt: string | null;
  deadReason: string | null;
  retriedAt: string | null;
  retriedBy: string | null;
  groupId: string | null;
  callKey: string | null;
  toolCallId: number | null;
  fault: string | null;
};

export type OutboxMessageDetail = OutboxMessageView & { body: string; attemptList: OutboxAttemptView[] };

export type OutboxPage = {
  generatedAt: string;
  items: OutboxMessageView[];
  counts: Partial<Record<OutboxStatus, number>>;
  nextBefore: number | null;
};
