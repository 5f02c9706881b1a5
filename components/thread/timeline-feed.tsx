"use client";
// The timeline's rows view: the virtualized feed of the loaded window (only the rows on screen are in the
// DOM), with an "N new" button for live rows held back while the reader is elsewhere.
import type { TimelineFeedController } from "./use-timeline-feed.ts";
import type { TimelineWindow } from "./use-timeline-window.ts";
import { TimelineRowView } from "./timeline-row.tsx";

export function TimelineFeed({
  win,
  feed,
  groupId,
}: {
  win: TimelineWindow;
  feed: TimelineFeedController;
  groupId: string;
}) {
  const { rows, state } = win;
  const { items, virtualizer, focusIndex, expanded, eventsById, scrollRef, updateFollowing } = feed;
  const setSize = state.hasMoreHistory || state.hasBefore ? -1 : rows.length;
  const newCount = state.buffered.length;
  const showBuffered = () => {
    win.showBuffered();
    win.setFollow(true);
    requestAnimationFrame(() => virtualizer.scrollToIndex(rows.length + newCount - 1, { align: "end" }));
  };
  return (
    <div className="timeline-frame">
      <div
        ref={scrollRef}
        className="timeline-scroll"
        role="feed"
        aria-label="Thread timeline"
        aria-busy={win.newer.isFetching || win.older.isFetching || win.jumping}
        onScroll={updateFollowing}
        data-testid="timeline-scroll"
      >
        {rows.length === 0 ? (
          <p className="muted timeline-empty">
            {win.filter.q || win.filter.only ? "No rows match." : "No events in this thread yet."}
          </p>
        ) : null}
        <div className="timeline-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const event = row.kind === "batch" ? undefined : eventsById.get(row.eventId);
            const callRowId = row.kind === "call" ? row.callRowId : (event?.callRowId ?? null);
            return (
              <TimelineRowView
                key={item.key}
                row={row}
                index={item.index}
                setSize={setSize}
                start={item.start}
                focused={item.index === focusIndex}
                expanded={expanded.has(row.key)}
                event={event}
                call={callRowId === null ? undefined : state.calls.get(callRowId)}
                groupId={groupId}
                measureRef={virtualizer.measureElement}
                onFocusRow={feed.setFocusIndex}
                onToggle={feed.onToggle}
              />
            );
          })}
        </div>
      </div>
      {newCount > 0 ? (
        <button type="button" className="button button-primary new-rows" onClick={showBuffered} data-testid="new-rows">
          ↓ {newCount.toLocaleString("en-US")} new
        </button>
      ) : null}
      {win.newer.isError || win.older.isError ? (
        <p className="notice notice-bad timeline-error" role="alert">
          Could not load more of the timeline: {(win.newer.error ?? win.older.error)?.message}{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => void (win.newer.isError ? win.newer.refetch() : win.older.refetch())}
          >
            Retry
          </button>
        </p>
      ) : null}
    </div>
  );
}
