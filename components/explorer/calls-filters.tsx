"use client";
// The explorer's filters as a GET form whose fields are the URL: shareable, back-button safe, no hidden state.
// Empty fields are left out of the URL; selects and checkboxes apply at once, text fields on Enter or "Apply".
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, type FormEvent } from "react";
import { NEXT_ACTIONS, ENVELOPE_ERROR_TYPES } from "@/lib/results/envelope.ts";
import {
  DEADLINE_PASSED,
  ENVELOPE_FILTERS,
  EXPLORER_SORTS,
  SIGNAL_ERROR_TYPES,
  type ExplorerFilters,
  type ExplorerSort,
} from "@/lib/explorer/schemas.ts";
import { CALL_STATUSES } from "@/lib/threads/schemas.ts";

const SORT_LABELS: Record<ExplorerSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  slowest: "Slowest first",
  fastest: "Fastest first",
  confidence_low: "Lowest confidence",
  confidence_high: "Highest confidence",
};
const ENVELOPE_LABELS: Record<(typeof ENVELOPE_FILTERS)[number], string> = {
  trusted: "Valid or partial",
  valid: "Valid",
  partial: "Partial",
  invalid: "Invalid",
  none: "No envelope",
};
const VENDORS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp", "otel"];
const MORE: (keyof ExplorerFilters)[] = [
  "errorType",
  "vendor",
  "latencyMin",
  "latencyMax",
  "confidenceMin",
  "confidenceBelow",
  "nextAction",
  "envelope",
  "late",
  "timedOut",
  "from",
  "to",
  "thread",
];

const local = (iso: string | undefined) => (iso ? iso.slice(0, 16) : "");

// eslint-disable-next-line max-lines-per-function -- one form: each filter is a labelled field, and splitting the markup would scatter the URL state it submits
export function CallsFilters({ filters, sort }: { filters: ExplorerFilters; sort: ExplorerSort }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const go = () => {
    if (!form.current) return;
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form.current))
      if (typeof value === "string" && value.trim() !== "" && !(key === "sort" && value === "newest"))
        params.set(key, value.trim());
    const search = params.toString();
    router.push(search ? `/calls?${search}` : "/calls");
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go();
  };
  const active = Object.values(filters).some((value) => value !== undefined);
  const moreOpen = MORE.some((key) => filters[key] !== undefined);
  return (
    <form
      ref={form}
      action="/calls"
      method="get"
      onSubmit={submit}
      className="card explorer-filters"
      role="search"
      aria-label="Filter and search calls"
    >
      <div className="explorer-filters-main">
        <label className="field field-grow">
          <span className="field-label">Search arguments and results</span>
          <input
            className="input"
            type="search"
            name="q"
            defaultValue={filters.q ?? ""}
            placeholder="Words, e.g. timeout invoice_42"
            maxLength={200}
          />
        </label>
        <label className="field">
          <span className="field-label">Tool</span>
          <input
            className="input"
            name="tool"
            defaultValue={filters.tool ?? ""}
            list="explorer-tools"
            placeholder="Any tool"
            maxLength={200}
            autoComplete="off"
          />
        </label>
        <label className="field">
          <span className="field-label">Status</span>
          <select className="input" name="status" defaultValue={filters.status ?? ""} onChange={go}>
            <option value="">Any status</option>
            {CALL_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.replace("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Sort</span>
          <select className="input" name="sort" defaultValue={sort} onChange={go}>
            {EXPLORER_SORTS.map((value) => (
              <option key={value} value={value}>
                {SORT_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <div className="field-actions">
          <button type="submit" className="button button-primary">
            Apply
          </button>
          {active ? (
            <Link href="/calls" className="button">
              Clear
            </Link>
          ) : null}
        </div>
      </div>
      <details className="explorer-more" open={moreOpen}>
        <summary>More filters</summary>
        <div className="explorer-filters-grid">
          <label className="field">
            <span className="field-label">Error type</span>
            <input
              className="input"
              name="errorType"
              defaultValue={filters.errorType ?? ""}
              list="explorer-error-types"
              placeholder="Any"
              maxLength={200}
              autoComplete="off"
            />
            <datalist id="explorer-error-types">
              {[...ENVELOPE_ERROR_TYPES, ...Object.keys(SIGNAL_ERROR_TYPES), DEADLINE_PASSED, "error"].map((type) => (
                <option key={type} value={type} />
              ))}
            </datalist>
          </label>
          <label className="field">
            <span className="field-label">Vendor</span>
            <input
              className="input"
              name="vendor"
              defaultValue={filters.vendor ?? ""}
              list="explorer-vendors"
              placeholder="Any"
              maxLength={64}
              autoComplete="off"
            />
            <datalist id="explorer-vendors">
              {VENDORS.map((vendor) => (
                <option key={vendor} value={vendor} />
              ))}
            </datalist>
          </label>
          <label className="field">
            <span className="field-label">nextAction</span>
            <select className="input" name="nextAction" defaultValue={filters.nextAction ?? ""} onChange={go}>
              <option value="">Any</option>
              {NEXT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Envelope</span>
            <select className="input" name="envelope" defaultValue={filters.envelope ?? ""} onChange={go}>
              <option value="">Any</option>
              {ENVELOPE_FILTERS.map((value) => (
                <option key={value} value={value}>
                  {ENVELOPE_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="field explorer-range">
            <legend
              className="field-label"
              title="The tool-reported duration (meta.durationMs) when there is one, else the observed time"
            >
              Latency (ms, tool-reported else observed)
            </legend>
            <input
              className="input"
              type="number"
              name="latencyMin"
              min={0}
              step="any"
              defaultValue={filters.latencyMin ?? ""}
              placeholder="min"
              aria-label="Latency at least (ms)"
            />
            <span aria-hidden="true">–</span>
            <input
              className="input"
              type="number"
              name="latencyMax"
              min={0}
              step="any"
              defaultValue={filters.latencyMax ?? ""}
              placeholder="max"
              aria-label="Latency at most (ms)"
            />
          </fieldset>
          <fieldset className="field explorer-range">
            <legend className="field-label">Confidence</legend>
            <input
              className="input"
              type="number"
              name="confidenceMin"
              step="any"
              defaultValue={filters.confidenceMin ?? ""}
              placeholder="≥"
              aria-label="Confidence at least"
            />
            <span aria-hidden="true">–</span>
            <input
              className="input"
              type="number"
              name="confidenceBelow"
              step="any"
              defaultValue={filters.confidenceBelow ?? ""}
              placeholder="<"
              aria-label="Confidence below"
            />
          </fieldset>
          <fieldset className="field explorer-range explorer-range-wide">
            <legend className="field-label">Requested (UTC)</legend>
            <input
              className="input"
              type="datetime-local"
              name="from"
              defaultValue={local(filters.from)}
              aria-label="Requested from (UTC)"
            />
            <span aria-hidden="true">–</span>
            <input
              className="input"
              type="datetime-local"
              name="to"
              defaultValue={local(filters.to)}
              aria-label="Requested before (UTC)"
            />
          </fieldset>
          <label className="field">
            <span className="field-label">Thread (group id)</span>
            <input
              className="input"
              name="thread"
              defaultValue={filters.thread ?? ""}
              placeholder="Any thread"
              maxLength={500}
              autoComplete="off"
            />
          </label>
          <div className="explorer-checks">
            <label className="toolbar-check">
              <input type="checkbox" name="late" value="1" defaultChecked={filters.late === "1"} onChange={go} /> Late
              result
            </label>
            <label className="toolbar-check">
              <input
                type="checkbox"
                name="timedOut"
                value="1"
                defaultChecked={filters.timedOut === "1"}
                onChange={go}
              />{" "}
              Timed out
            </label>
          </div>
        </div>
      </details>
    </form>
  );
}
