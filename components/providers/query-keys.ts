// Every react-query key, from one factory, so invalidation and polling agree on names.
export const queryKeys = {
  overview: () => ["overview"] as const,
  threads: (filters: Record<string, string | undefined>) => ["threads", filters] as const,
  timeline: (groupId: string) => ["timeline", groupId] as const,
  call: (callRowId: number) => ["call", callRowId] as const,
  pending: () => ["pending"] as const,
  subscriptions: () => ["subscriptions"] as const,
  deliveries: (filters: Record<string, string | undefined>) => ["deliveries", filters] as const,
  insights: () => ["insights"] as const,
};

// ─── Dashboard (overview, pending, subscriptions, deliveries, insights) ─────────────────────────────
/** Keys that carry their parameters; the parameterless ones above stay for other callers. */
export const dashboardQueryKeys = {
  pending: (sort: string) => ["pending", sort] as const,
  deliveryBody: (id: number) => ["delivery-body", id] as const,
};

// ─── Threads, timeline, call detail ─────────────────────────────────────────────────────────────────
/** The thread timeline pages by position (`after` event id), and bodies loaded on demand. */
export const threadQueryKeys = {
  timelinePage: (groupId: string, after: number) => ["timeline", groupId, "page", after] as const,
  timelineTail: (groupId: string, after: number) => ["timeline", groupId, "tail", after] as const,
  eventText: (groupId: string, eventId: number) => ["timeline", groupId, "event-text", eventId] as const,
  callInfo: (callRowId: number) => ["call", callRowId, "info"] as const,
  resultText: (resultId: number) => ["result-text", resultId] as const,
  callDeliveryBody: (callRowId: number, deliveryId: number) => ["call", callRowId, "delivery-body", deliveryId] as const,
};

// ─── Traces (import, replay, compare) ───────────────────────────────────────────────────────────────
/** An import creates a thread: every threads list and the overview counts are stale afterwards. */
export const traceQueryKeys = {
  allThreadLists: () => ["threads"] as const,
  overview: () => ["overview"] as const,
};

// ─── Forks ──────────────────────────────────────────────────────────────────────────────────────────
/** A fork's state, polled while its model answers. */
export const forkQueryKeys = {
  fork: (groupId: string) => ["fork", groupId] as const,
};
