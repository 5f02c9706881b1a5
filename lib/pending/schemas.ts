// Pending calls (awaiting a result, not subscriptions): query parameters and the DTOs of the service, the
// API route and the components. Client-safe.
import { z } from "zod";
import type { SubscriptionList } from "../subscriptions/schemas.ts";

export const PENDING_SORTS = ["oldest", "newest"] as const;
export type PendingSort = (typeof PENDING_SORTS)[number];

/** `?sort=`: oldest first by default (the calls waiting longest are the interesting ones). */
export const pendingQuerySchema = z.object({ sort: z.enum(PENDING_SORTS).default("oldest") });

export type PendingCall = {
  callRowId: number;
  groupId: string;
  callKey: string;
  callId: string | null;
  toolName: string;
  vendor: string | null;
  step: number | null;
  requestedAt: string;
  deadlineAt: string | null;
};

export type PendingCallList = { total: number; calls: PendingCall[] };

/** A call that passed its deadline without a result: kept on the pending page (with its state) for a while. */
export type TimedOutCall = PendingCall & { timedOutAt: string };
export type TimedOutCallList = { total: number; calls: TimedOutCall[]; sinceHours: number };

export type PendingSnapshot = {
  generatedAt: string;
  sort: PendingSort;
  /** `calls` holds at most this many rows; `total` counts them all. */
  limit: number;
  pending: PendingCallList;
  /** Calls that timed out recently (newest first): they leave "awaiting" but stay visible, marked timed out. */
  timedOut: TimedOutCallList;
  subscriptions: SubscriptionList;
};
