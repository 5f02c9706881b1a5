"use client";
// Polls a same-origin API route every 2 s, starting from the server-rendered data (no loading state, no
// layout shift). Polling pauses while the tab is hidden and resumes at once when it is shown again.
import { useQuery, type QueryKey } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json.ts";

export const LIVE_POLL_MS = 2000;

export function useLiveQuery<T>(options: { queryKey: QueryKey; path: string; initialData: T; enabled?: boolean }) {
  const query = useQuery({
    queryKey: options.queryKey,
    queryFn: ({ signal }) => fetchJson<T>(options.path, signal),
    initialData: options.initialData,
    // The server rendered it a moment ago; the first poll comes one interval later.
    initialDataUpdatedAt: () => Date.now(),
    refetchInterval: options.enabled === false ? false : LIVE_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    enabled: options.enabled,
    // Keep showing the last good data when a poll fails; the indicator says it is not updating.
    retry: false,
  });
  return { data: query.data ?? options.initialData, updatedAt: query.dataUpdatedAt, failing: query.isError };
}
