// Subscriptions (ToolCall.subscription = "active" | "cancelled"): the DTOs the service returns, the API route
// sends and the components render. Client-safe.

export const SUBSCRIPTION_STATES = ["active", "cancelled"] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export type SubscriptionSummary = {
  callRowId: number;
  groupId: string;
  callKey: string;
  toolName: string;
  vendor: string | null;
  /** The call's status: a subscription that has results is "completed" (or "errored") and still active. */
  status: string;
  state: SubscriptionState;
  resultCount: number;
  lastResultAt: string | null;
  requestedAt: string;
  /** When the runtime cancelled it (its subscription_cancel event), with the reason it gave. */
  cancelledAt: string | null;
  cancelReason: string | null;
};

export type SubscriptionList = { total: number; items: SubscriptionSummary[] };

export type SubscriptionsSnapshot = {
  generatedAt: string;
  /** Each list holds at most this many rows, newest registration first. */
  limit: number;
  active: SubscriptionList;
  cancelled: SubscriptionList;
};
