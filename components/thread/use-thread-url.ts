"use client";
// The thread page's address follows what the reader is looking at, so it can be shared: ?q= and ?only= (the
// search and "show only" filter), ?view=waterfall and ?wf=<from>-<to> (the waterfall and its zoom) and, once the
// reader has moved to a row, ?call=<id> (a call's row) or ?event=<id> (a model or runtime event's row). The page reads the same parameters (app/threads/[groupId]/page.tsx),
// so a copied address opens the same filtered window around the same row. Written with history.replaceState:
// no navigation, no server render, no history entry per key press.
import { useEffect } from "react";
import type { TimelineFilter } from "@/lib/threads/schemas.ts";
import { formatZoom, type Zoom } from "./waterfall-scale.ts";

export type SharedRow = { call: string } | { event: number } | null;
export type TimelineView = "rows" | "waterfall";
export type SharedView = { filter: TimelineFilter; row: SharedRow; view?: TimelineView; zoom?: Zoom | null };

/** The page address for what is shown, from `href` (pure: the parameters other than these are kept). */
export function threadShareUrl(href: string, shown: SharedView): string {
  const { filter, row, view = "rows", zoom = null } = shown;
  const url = new URL(href);
  const params = url.searchParams;
  const put = (name: string, value: string | undefined) => (value ? params.set(name, value) : params.delete(name));
  put("q", filter.q);
  put("only", filter.only);
  put("view", view === "waterfall" ? view : undefined);
  put("wf", view === "waterfall" && zoom ? formatZoom(zoom) : undefined);
  if (row !== null) {
    // One place in the thread at a time: the row replaces whichever of call / step / event opened the page.
    params.delete("step");
    if ("call" in row) {
      params.delete("event");
      params.set("call", row.call);
    } else {
      params.delete("call");
      params.set("event", String(row.event));
    }
  }
  return url.toString();
}

export function useThreadUrl(shown: SharedView): void {
  const { filter, row, view, zoom } = shown;
  const rowKey = row === null ? "" : "call" in row ? `call:${row.call}` : `event:${row.event}`;
  const zoomKey = zoom ? formatZoom(zoom) : "";
  useEffect(() => {
    const next = threadShareUrl(window.location.href, shown);
    if (next !== window.location.href) window.history.replaceState(window.history.state, "", next);
    // Compared by value (rowKey, zoomKey): new objects for the same row or range are no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filter.q, filter.only, rowKey, view, zoomKey]);
}
