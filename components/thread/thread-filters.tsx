"use client";
// The threads list's search and filters: a GET form whose fields are the URL (shareable, back-button safe);
// selects and checkboxes apply at once, the search applies on Enter.
import Form from "next/form";
import Link from "next/link";
import { useRef } from "react";
import type { ThreadFilters as Filters } from "@/lib/threads/schemas.ts";

const STATUS_LABELS = {
  pending: "Pending",
  completed: "Completed",
  errored: "Errored",
  timed_out: "Timed out",
  cancelled: "Cancelled",
} as const;
const RANGE_LABELS = {
  "15m": "Last 15 min",
  "1h": "Last hour",
  "24h": "Last 24 h",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
} as const;

export function ThreadFilters({ filters }: { filters: Filters }) {
  const form = useRef<HTMLFormElement>(null);
  const apply = () => form.current?.requestSubmit();
  const active = Object.values(filters).some((value) => value !== undefined);
  return (
    <Form action="/threads" ref={form} className="toolbar" role="search" aria-label="Search and filter threads">
      <input
        className="input toolbar-search"
        type="search"
        name="q"
        defaultValue={filters.q ?? ""}
        placeholder="Group id or tool name…"
        aria-label="Search threads"
        maxLength={200}
      />
      <label className="toolbar-field">
        <span>in</span>
        <select className="input" name="in" defaultValue={filters.in ?? ""} onChange={apply} aria-label="Search in">
          <option value="">ids &amp; tool names</option>
          <option value="text">…and result text</option>
        </select>
      </label>
      <select
        className="input"
        name="status"
        defaultValue={filters.status ?? ""}
        onChange={apply}
        aria-label="Call status"
      >
        <option value="">Any status</option>
        {Object.entries(STATUS_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <select
        className="input"
        name="range"
        defaultValue={filters.range ?? ""}
        onChange={apply}
        aria-label="Last activity"
      >
        <option value="">Any time</option>
        {Object.entries(RANGE_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <label className="toolbar-check">
        <input type="checkbox" name="errors" value="1" defaultChecked={filters.errors === "1"} onChange={apply} />
        Has errors
      </label>
      <label className="toolbar-check">
        <input type="checkbox" name="pending" value="1" defaultChecked={filters.pending === "1"} onChange={apply} />
        Has pending
      </label>
      <button type="submit" className="button button-primary">
        Search
      </button>
      {active ? (
        <Link href="/threads" className="button">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}
