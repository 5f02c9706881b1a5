"use client";
// The thread's search and navigation bar: search and "only" filter (read on the server), next / previous
// error, pending and low-confidence rows, go to a step or a call id, top / end, and the rows / waterfall switch.
import { useState, type FormEvent, type RefObject } from "react";
import { TIMELINE_ONLY, type TimelineFilter, type TimelineOnly } from "@/lib/threads/schemas.ts";

const ONLY_LABELS: Record<TimelineOnly, string> = {
  errors: "Errors",
  pending: "Pending",
  low_confidence: "Low confidence",
  calls: "Calls only",
};
const isOnly = (value: string): value is TimelineOnly => TIMELINE_ONLY.some((only) => only === value);

export type NavTarget = "errors" | "pending" | "low_confidence";
const NAV: { target: NavTarget; label: string; key: string }[] = [
  { target: "errors", label: "error", key: "e" },
  { target: "pending", label: "pending", key: "p" },
  { target: "low_confidence", label: "low confidence", key: "c" },
];

type Props = {
  filter: TimelineFilter;
  matches: number | null;
  onFilter: (filter: TimelineFilter) => void;
  onNext: (target: NavTarget, direction: "next" | "prev") => void;
  onGoTo: (value: string) => void;
  searchRef: RefObject<HTMLInputElement | null>;
  goToRef: RefObject<HTMLInputElement | null>;
};

export function TimelineSearch({
  filter,
  matches,
  onFilter,
  searchRef,
}: Pick<Props, "filter" | "matches" | "onFilter" | "searchRef">) {
  const [q, setQ] = useState(filter.q ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onFilter({ ...filter, q: q.trim() || undefined });
  };
  return (
    <form className="tl-search" role="search" aria-label="Search this thread" onSubmit={submit}>
      <input
        ref={searchRef}
        className="input"
        type="search"
        value={q}
        onChange={(event) => setQ(event.target.value)}
        placeholder="Search tool, call id, arguments, results…"
        aria-label="Search in thread"
        maxLength={200}
        data-testid="thread-search"
      />
      <select
        className="input"
        aria-label="Show only"
        value={filter.only ?? ""}
        // The search box as shown, not the last submitted filter: a choice made right after clearing the box must
        // not bring the old search back.
        onChange={(event) =>
          onFilter({
            ...filter,
            q: q.trim() || undefined,
            only: isOnly(event.target.value) ? event.target.value : undefined,
          })
        }
        data-testid="thread-only"
      >
        <option value="">All rows</option>
        {TIMELINE_ONLY.map((only) => (
          <option key={only} value={only}>
            {ONLY_LABELS[only]}
          </option>
        ))}
      </select>
      <button type="submit" className="button">
        Search
      </button>
      {filter.q || filter.only ? (
        <>
          <span className="small muted" role="status" data-testid="thread-matches">
            {(matches ?? 0).toLocaleString("en-US")} {matches === 1 ? "match" : "matches"}
          </span>
          <button
            type="button"
            className="link-button small"
            onClick={() => {
              setQ("");
              onFilter({});
            }}
          >
            Clear
          </button>
        </>
      ) : null}
    </form>
  );
}

export function TimelineNav({ onNext, onGoTo, goToRef }: Pick<Props, "onNext" | "onGoTo" | "goToRef">) {
  const [value, setValue] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onGoTo(value.trim());
  };
  return (
    <div className="tl-nav" role="group" aria-label="Go to">
      {NAV.map(({ target, label, key }) => (
        <span key={target} className="tl-nav-pair">
          <button
            type="button"
            className="button"
            onClick={() => onNext(target, "prev")}
            aria-label={`Previous ${label}`}
            title={`Previous ${label} (Shift+${key.toUpperCase()})`}
          >
            ‹
          </button>
          <span className="small">{label}</span>
          <button
            type="button"
            className="button"
            onClick={() => onNext(target, "next")}
            aria-label={`Next ${label}`}
            title={`Next ${label} (${key})`}
          >
            ›
          </button>
        </span>
      ))}
      <form className="tl-goto" onSubmit={submit}>
        <input
          ref={goToRef}
          className="input"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder="Step # or call id"
          aria-label="Go to step number or call id"
          maxLength={500}
          data-testid="thread-goto"
        />
        <button type="submit" className="button">
          Go
        </button>
      </form>
    </div>
  );
}
