// Every in-app URL built from data, in one place: the pages other areas own (/threads, /calls) and the
// filtered lists behind the dashboard's figures. Pure; ids are encoded, so no id can change the path.

export function threadHref(groupId: string): string {
  return `/threads/${encodeURIComponent(groupId)}`;
}

export function callHref(callRowId: number): string {
  return `/calls/${callRowId}`;
}

function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The threads list (lib/threads/schemas.ts threadListQuerySchema): status, errors=1, pending=1, range=1h|24h|… */
export function threadsHref(
  filters: { status?: string; q?: string; errors?: "1"; pending?: "1"; range?: string } = {},
): string {
  return withQuery("/threads", filters);
}

export function deliveriesHref(
  filters: { outcome?: string; group?: string; origin?: string; cursor?: string } = {},
): string {
  return withQuery("/deliveries", filters);
}

export function pendingHref(filters: { sort?: string } = {}): string {
  return withQuery("/pending", filters);
}

/** Only http(s) URLs from tool data may become links; everything else stays text. */
export function safeExternalUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
