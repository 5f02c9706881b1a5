// The overview's figures and short lists: the DTO the service returns, GET /api/overview sends and the
// overview component renders. Client-safe.
import type { PendingCallList } from "../pending/schemas.ts";

export const CALL_STATUSES = ["pending", "completed", "errored", "timed_out", "cancelled", "auth_required"] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export type LowConfidenceResult = {
  resultId: number;
  callRowId: number;
  groupId: string;
  callKey: string;
  toolName: string;
  confidence: number;
  nextAction: string | null;
  envelopeKind: string | null;
  receivedAt: string;
};

export type RecentThread = {
  groupId: string;
  title: string | null;
  vendor: string | null;
  lastActivityAt: string;
  calls: number;
  pending: number;
  errored: number;
  timedOut: number;
  /** As the threads list counts them (lib/threads countsFor): failed calls, plus error events not about one. */
  errors: number;
};

export type OverviewData = {
  generatedAt: string;
  counts: { threads: number; calls: number; results: number; deliveries: number };
  /** Every status in CALL_STATUSES, plus any other value found in the data. */
  callsByStatus: Record<string, number>;
  resultsLastHour: number;
  /** Results whose envelope confidence is below LOW_CONFIDENCE_BELOW (the seed's "ask a human" band). */
  lowConfidence: { total: number; below: number; newest: LowConfidenceResult[] };
  /** Pending calls (not subscriptions), oldest first. */
  pending: PendingCallList;
  subscriptions: { active: number; cancelled: number };
  deliveriesByOutcome: { outcome: string; count: number }[];
  recentThreads: RecentThread[];
};
