"use client";
// The "N new" pill of a live list (see use-live-list.ts): sticks to the top of the list while the reader is
// scrolled down; pressing it shows the held-back rows and moves the reader to the top of the list.
export function NewItemsButton({
  count,
  noun,
  onShow,
}: {
  count: number;
  noun: [one: string, many: string];
  onShow: () => void;
}) {
  return (
    <div className="live-new" aria-live="polite">
      {count > 0 ? (
        <button type="button" className="button button-primary live-new-button" onClick={onShow}>
          <span aria-hidden="true">↑</span> {count} new {count === 1 ? noun[0] : noun[1]}
        </button>
      ) : null}
    </div>
  );
}
