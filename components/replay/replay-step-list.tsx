"use client";
// The replay's step list: the events either side of the current step (the server sends only those), each a
// button that stops the history right after it; events in the history, the current one and pending calls marked.
import { useEffect, useRef } from "react";
import type { ReplayListItem } from "@/lib/traces/schemas.ts";

type Props = {
  items: ReplayListItem[];
  step: number;
  total: number;
  omitted: Record<string, number>;
  onStep: (step: number) => void;
};

export function ReplayStepList({ items, step, total, omitted, onStep }: Props) {
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!list || !item) return;
    // Scroll the list only (scrollIntoView would also scroll the page away from the controls).
    if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop - 8;
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight + 8;
  }, [step, items]);
  const first = items[0]?.index ?? 0;
  const last = (items.at(-1)?.index ?? -1) + 1;

  return (
    <section className="card replay-timeline" aria-label="Timeline">
      <h2>Timeline</h2>
      <p className="small muted">The history at step N holds events 1 to N. Pick an event to stop right after it.</p>
      <ol className="replay-events" ref={listRef} data-testid="replay-events">
        <li className={`replay-event${step === 0 ? " is-current" : ""}`}>
          <button
            type="button"
            className="replay-event-button"
            onClick={() => onStep(0)}
            aria-current={step === 0 ? "step" : undefined}
          >
            <span className="replay-event-index">0</span>
            <span className="replay-event-kind" />
            <span className="replay-event-text muted">(empty history)</span>
          </button>
        </li>
        {first > 0 ? (
          <li className="replay-gap small muted">… {first.toLocaleString("en-US")} earlier events</li>
        ) : null}
        {items.map((event) => {
          const included = event.index < step;
          const isPending = included && event.pending;
          const classes = [
            "replay-event",
            included ? "is-included" : "is-later",
            event.index === step - 1 ? "is-current" : "",
            isPending ? "is-pending" : "",
            `kind-${event.kind}`,
          ]
            .filter(Boolean)
            .join(" ");
          return (
            <li key={event.index} className={classes}>
              <button
                type="button"
                className="replay-event-button"
                onClick={() => onStep(event.index + 1)}
                aria-current={event.index === step - 1 ? "step" : undefined}
              >
                <span className="replay-event-index">{event.index + 1}</span>
                <span className="replay-event-kind">{event.label}</span>
                <span className="replay-event-text">{event.summary}</span>
                {isPending ? <span className="badge badge-pending">pending</span> : null}
                {event.isError ? <span className="badge badge-bad">error</span> : null}
              </button>
            </li>
          );
        })}
        {last < total ? (
          <li className="replay-gap small muted">… {(total - last).toLocaleString("en-US")} later events</li>
        ) : null}
      </ol>
      {Object.keys(omitted).length > 0 ? (
        <p className="small muted replay-omitted">
          Not model-visible, left out of the steps:{" "}
          {Object.entries(omitted)
            .map(([kind, count]) => `${kind.replace("_", " ")} (${count})`)
            .join(", ")}
          .
        </p>
      ) : null}
    </section>
  );
}
