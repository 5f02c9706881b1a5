// The fork pages' paths (their writes go through the one client kit, components/ui/fetch-json.ts).

export function forkApiPath(groupId: string, rest = ""): string {
  return `/api/threads/${encodeURIComponent(groupId)}/fork${rest}`;
}

export function forkPageHref(groupId: string): string {
  return `/threads/${encodeURIComponent(groupId)}/fork`;
}

export function newForkHref(groupId: string, options: { step?: number; call?: string } = {}): string {
  const params = new URLSearchParams();
  if (options.step !== undefined) params.set("step", String(options.step));
  if (options.call !== undefined) params.set("call", options.call);
  const search = params.toString();
  return `/threads/${encodeURIComponent(groupId)}/forks/new${search ? `?${search}` : ""}`;
}
