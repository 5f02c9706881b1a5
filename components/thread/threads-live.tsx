"use client";
// The threads list kept live: on the first page (newest activity) it polls GET /api/threads with the same
// filters every 2 s, so counts change in place and newly active threads come to the top — unless the reader
// has scrolled into the list, when they wait behind an "N new" button (use-live-list.ts). Older pages are a
// fixed slice of history and stay as rendered.
import { queryKeys } from "@/components/providers/query-keys.ts";
import { LiveIndicator } from "@/components/ui/live-indicator.tsx";
import { NewItemsButton } from "@/components/ui/new-items-button.tsx";
import { useLiveList } from "@/components/ui/use-live-list.ts";
import { useLiveQuery } from "@/components/ui/use-live-query.ts";
import type { ThreadFilters, ThreadListItem, ThreadListPage } from "@/lib/threads/schemas.ts";
import { ThreadsTable } from "./threads-table.tsx";

const keyOf = (thread: ThreadListItem) => thread.groupId;

function apiPath(filters: ThreadFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters))
    if (typeof value === "string" && value !== "") params.set(key, value);
  const query = params.toString();
  return query ? `/api/threads?${query}` : "/api/threads";
}

/** `page`: "live" for the first page; an older page's cursor otherwise (its own cache entry, never polled). */
export function ThreadsLive({
  initial,
  filters,
  page,
}: {
  initial: ThreadListPage;
  filters: ThreadFilters;
  page: string;
}) {
  const path = apiPath(filters);
  const live = page === "live";
  const { data, updatedAt, failing } = useLiveQuery<ThreadListPage>({
    queryKey: queryKeys.threads({ ...Object.fromEntries(new URLSearchParams(path.split("?")[1] ?? "")), page }),
    path,
    initialData: initial,
    enabled: live,
  });
  const { rows, held, showNew, setAnchor } = useLiveList(data.threads, { keyOf });
  return (
    <>
      <div ref={setAnchor} tabIndex={-1} className="live-anchor threads-live-bar">
        {live ? <LiveIndicator updatedAt={updatedAt} failing={failing} /> : null}
      </div>
      <NewItemsButton count={held} noun={["thread", "threads"]} onShow={showNew} />
      <ThreadsTable threads={rows.map((row) => row.item)} />
    </>
  );
}
