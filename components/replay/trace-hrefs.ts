// URLs of the traces pages and downloads (replay, compare, import, export), built from ids in one place. Pure.
import type { ReplayVendorName } from "@/lib/traces/schemas.ts";

/** `call`: open right after that call's result (the replay finds its step), for "replay at this step" links. */
export function replayHref(
  groupId: string,
  options: { step?: number; call?: string; vendor?: ReplayVendorName } = {},
): string {
  const params = new URLSearchParams();
  if (options.step !== undefined) params.set("step", String(options.step));
  if (options.call !== undefined) params.set("call", options.call);
  if (options.vendor !== undefined) params.set("vendor", options.vendor);
  const search = params.toString();
  return `/threads/${encodeURIComponent(groupId)}/replay${search ? `?${search}` : ""}`;
}

export function exportHref(groupId: string): string {
  return `/api/threads/${encodeURIComponent(groupId)}/export`;
}

export function compareHref(a?: string, b?: string): string {
  const params = new URLSearchParams();
  if (a) params.set("a", a);
  if (b) params.set("b", b);
  const search = params.toString();
  return `/compare${search ? `?${search}` : ""}`;
}

export function importApiHref(query: { format?: string; groupId?: string; name?: string }): string {
  const params = new URLSearchParams();
  if (query.format) params.set("format", query.format);
  if (query.groupId) params.set("group_id", query.groupId);
  if (query.name) params.set("name", query.name);
  const search = params.toString();
  return `/api/import${search ? `?${search}` : ""}`;
}

/** A file name safe on every OS, from untrusted parts. */
export function safeFileName(...parts: string[]): string {
  return parts
    .join("-")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .slice(0, 180);
}
