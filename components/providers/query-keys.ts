// Every react-query key, from one factory, so invalidation and polling agree on names. A key's first element
// names the resource; invalidating a prefix (["threads"]) reaches every key below it. Add keys here, not inline.
export const queryKeys = {
  // ─── Dashboard (overview, pending, subscriptions, deliveries) ───
  overview: () => ["overview"] as const,
  pending: (sort: string) => ["pending", sort] as const,
  subscriptions: () => ["subscriptions"] as const,
  deliveries: (filters: Record<string, string | undefined>) => ["deliveries", filters] as const,
  deliveryBody: (id: number) => ["delivery-body", id] as const,

  // ─── Threads, timeline, call detail (the timeline reads windows before / after / around an event id) ───
  /** The prefix of every threads list: an import makes them all stale. */
  threadLists: () => ["threads"] as const,
  threads: (filters: Record<string, string | undefined>) => ["threads", filters] as const,
  /** A window of the thread read before / after / around an event id, under a search or filter ("" when none). */
  timelineWindow: (groupId: string, filter: string, position: string) =>
    ["timeline", groupId, "window", filter, position] as const,
  locate: (groupId: string, query: string) => ["timeline", groupId, "locate", query] as const,
  threadSummary: (groupId: string) => ["thread-summary", groupId] as const,
  eventText: (groupId: string, eventId: number) => ["timeline", groupId, "event-text", eventId] as const,
  callInfo: (callRowId: number) => ["call", callRowId, "info"] as const,
  resultText: (resultId: number) => ["result-text", resultId] as const,
  callDeliveryBody: (callRowId: number, deliveryId: number) =>
    ["call", callRowId, "delivery-body", deliveryId] as const,

  // ─── Replay: the page's data at one step in one encoding ───
  replayStep: (groupId: string, step: number, vendor: string) => ["replay", groupId, step, vendor] as const,

  // ─── In the path: held results, approvals, the outbox, a call's deliveries to the runtime ───
  held: () => ["held"] as const,
  approvals: () => ["approvals"] as const,
  outbox: (filters: Record<string, string | undefined>) => ["outbox", filters] as const,
  callInPath: (callRowId: number) => ["call", callRowId, "in-path"] as const,

  // ─── Forks: a fork's state, polled while its model answers ───
  fork: (groupId: string) => ["fork", groupId] as const,
};
