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
