"use client";
// Step-through replay: a step control (slider, buttons, ←/→/Home/End) over the canonical timeline, and the
// message history at that step in the chosen vendor encoding, copied or downloaded as exact JSON.
// Owns: the step and encoding (mirrored into ?step=&vendor= so a link reopens the same view).
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { CanonicalEvent } from "@/lib/formats/canonical.ts";
import { renderHistory, stringifyRequest, type RenderedHistory } from "@/lib/replay/render-history.ts";
import { findSecrets, maskSecrets, revealInvisible } from "@/lib/results/flags.ts";
import type { ReplayTrace } from "@/lib/traces/replay-thread.ts";
import { REPLAY_VENDOR_LABELS, REPLAY_VENDORS, type ReplayVendorName } from "@/lib/traces/schemas.ts";
import Link from "next/link";
import { newForkHref } from "@/components/forks/fork-api.ts";
import { eventKindLabel, eventSummary } from "./event-summary.ts";
import { ReplayAdjustments } from "./replay-adjustments.tsx";
import { safeFileName } from "./trace-hrefs.ts";

type Props = { trace: ReplayTrace; initialStep: number; initialVendor: ReplayVendorName };
// A notice belongs to the view it was made for: stepping away hides it.
type Notice = { tone: "ok" | "bad"; text: string; step: number; vendor: ReplayVendorName } | null;

// The step list shows this many events either side of the current one: a 10,000-event thread stays quick.
const LIST_WINDOW = 150;
// A long history is shown by its end (where step N is): this many items of its main array, at most this many characters.
const SHOWN_ITEMS = 60;
const SHOWN_JSON_CHARS = 200_000;
const HISTORY_ARRAY: Record<ReplayVendorName, string> = { anthropic: "messages", "openai-chat": "messages", "openai-responses": "input", gemini: "contents" };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isVendor(value: string): value is ReplayVendorName {
  return REPLAY_VENDORS.some((vendor) => vendor === value);
}

/** What the page shows of untrusted text: secret-looking strings masked, invisible characters made visible. */
function present(text: string): string {
  return revealInvisible(maskSecrets(text, findSecrets(text)));
}

function render(events: CanonicalEvent[], step: number, vendor: ReplayVendorName, trace: ReplayTrace): { history: RenderedHistory | null; error: string | null } {
  try {
    return { history: renderHistory(events, step, vendor, trace.declarations, { sourceFormat: trace.format }), error: null };
  } catch (error) {
    return { history: null, error: error instanceof Error ? error.message : String(error) };
  }
}

export function ReplayViewer({ trace, initialStep, initialVendor }: Props) {
  const total = trace.events.length;
  const clamp = useCallback((value: number) => Math.min(total, Math.max(0, Math.round(value))), [total]);
  const [step, setStepState] = useState(() => clamp(initialStep));
  const [vendor, setVendor] = useState<ReplayVendorName>(initialVendor);
  const [notice, setNotice] = useState<Notice>(null);
  const setStep = useCallback((value: number) => setStepState(clamp(value)), [clamp]);

  // Rendering a long history takes a while (tens of ms per thousand events); the controls and the step list
  // follow the keys at once and the JSON catches up, instead of every key press waiting for it.
  const renderedStep = useDeferredValue(step);
  const renderedVendor = useDeferredValue(vendor);
  const stale = renderedStep !== step || renderedVendor !== vendor;
  const { history, error } = useMemo(() => render(trace.events, renderedStep, renderedVendor, trace), [trace, renderedStep, renderedVendor]);
  // Only the end of a long history is shown (that is where step N is): its last items, pretty-printed. Copy and
  // Download give all of it; stringifying megabytes on every key press would make stepping sluggish.
  const shown = useMemo(() => {
    if (history === null) return { text: "", hiddenItems: 0, totalItems: 0, hiddenChars: 0 };
    const key = HISTORY_ARRAY[renderedVendor];
    const request = history.request;
    const items = isRecord(request) && Array.isArray(request[key]) ? request[key] : null;
    const windowed = items !== null && items.length > SHOWN_ITEMS && isRecord(request) ? { ...request, [key]: items.slice(-SHOWN_ITEMS) } : request;
    // Lossless: numbers a double cannot hold keep their digits (JSON.stringify would round them).
    const json = stringifyRequest(windowed, 2);
    const hiddenItems = windowed === request || items === null ? 0 : items.length - SHOWN_ITEMS;
    if (json.length <= SHOWN_JSON_CHARS) return { text: present(json), hiddenItems, totalItems: items?.length ?? 0, hiddenChars: 0 };
    const start = json.indexOf("\n", json.length - SHOWN_JSON_CHARS) + 1;
    return { text: present(json.slice(start)), hiddenItems, totalItems: items?.length ?? 0, hiddenChars: start };
  }, [history, renderedVendor]);
  const pending = useMemo(() => new Set(history?.pendingCallIds ?? []), [history]);
  const callNames = useMemo(() => {
    const names = new Map<string, string>();
    for (const event of trace.events) if (event.kind === "tool_call" && !names.has(event.callId)) names.set(event.callId, event.name);
    return names;
  }, [trace.events]);
  const current = step > 0 ? trace.events[step - 1] : undefined;
  const vendorLabel = REPLAY_VENDOR_LABELS[vendor];

  // The URL follows the view without a navigation (no server round trip while stepping).
  useEffect(() => {
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    url.searchParams.set("vendor", vendor);
    window.history.replaceState(window.history.state, "", url);
  }, [step, vendor]);

  // ←/→ and Home/End anywhere on the page, except where a control uses those keys itself (the slider, the select).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target;
      if (target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
      const next = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      setStep(next);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [step, total, setStep]);

  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!list || !item) return;
    // Scroll the list only (scrollIntoView would also scroll the page away from the controls).
    if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop - 8;
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight + 8;
  }, [step]);

  // Copy and Download render the step on the spot: the shown JSON may still be catching up with the keys.
  const exactJsonNow = () => {
    const now = render(trace.events, step, vendor, trace);
    return now.history === null ? null : stringifyRequest(now.history.request, 2);
  };

  const copy = async () => {
    const json = exactJsonNow();
    if (json === null) return;
    try {
      await navigator.clipboard.writeText(json);
      setNotice({ tone: "ok", text: `Copied the ${vendorLabel} history at step ${step} (${json.length.toLocaleString("en-US")} characters).`, step, vendor });
    } catch (copyError) {
      setNotice({ tone: "bad", text: `Could not copy: ${copyError instanceof Error ? copyError.message : String(copyError)}. Use Download instead.`, step, vendor });
    }
  };

  const download = () => {
    const json = exactJsonNow();
    if (json === null) return;
    const url = URL.createObjectURL(new Blob([`${json}\n`], { type: "application/json" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${safeFileName(trace.groupId, vendor, `step-${step}`)}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked a moment later: some browsers read the blob after click() returns.
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const first = Math.max(0, step - LIST_WINDOW);
  const last = Math.min(total, step + LIST_WINDOW);
  const pendingList = history?.pendingCallIds ?? [];

  return (
    <div className="replay">
      <section className="card replay-controls" aria-label="Replay controls">
        <div className="replay-step-row">
          <div className="replay-buttons">
            <button type="button" className="button" onClick={() => setStep(0)} disabled={step === 0} aria-label="First step">
              « First
            </button>
            <button type="button" className="button" onClick={() => setStep(step - 1)} disabled={step === 0} aria-label="Previous step">
              ‹ Prev
            </button>
            <button type="button" className="button" onClick={() => setStep(step + 1)} disabled={step === total} aria-label="Next step">
              Next ›
            </button>
            <button type="button" className="button" onClick={() => setStep(total)} disabled={step === total} aria-label="Last step">
              Last »
            </button>
          </div>
          <div className="replay-slider">
            <input
              type="range"
              min={0}
              max={total}
              step={1}
              value={step}
              onChange={(event) => setStep(Number(event.target.value))}
              aria-label="Step"
              aria-valuetext={`Step ${step} of ${total}${current ? `: ${eventKindLabel(current)}` : ""}`}
              data-testid="replay-slider"
            />
          </div>
          <output className="replay-position" aria-live="polite" data-testid="replay-position">
            Step <strong>{step}</strong> of {total}
            {pendingList.length > 0 ? ` · ${pendingList.length} pending` : ""}
          </output>
        </div>
        <div className="replay-actions">
          <label className="field">
            <span className="field-label">Encoding</span>
            <select
              className="input"
              value={vendor}
              onChange={(event) => {
                if (isVendor(event.target.value)) setVendor(event.target.value);
              }}
              data-testid="replay-vendor"
            >
              {REPLAY_VENDORS.map((name) => (
                <option key={name} value={name}>
                  {REPLAY_VENDOR_LABELS[name]}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="button button-primary" onClick={() => void copy()} disabled={history === null}>
            Copy JSON
          </button>
          <button type="button" className="button" onClick={download} disabled={history === null}>
            Download JSON
          </button>
          {step > 0 ? (
            <Link className="button" href={newForkHref(trace.groupId, { step })}>
              Fork here…
            </Link>
          ) : null}
          <span className="small muted replay-keys">
            Keys: <kbd>←</kbd> <kbd>→</kbd> <kbd>Home</kbd> <kbd>End</kbd>
          </span>
        </div>
        {notice !== null && notice.step === step && notice.vendor === vendor ? (
          <p className={`replay-notice replay-notice-${notice.tone}`} role={notice.tone === "bad" ? "alert" : "status"} data-testid="replay-notice">
            {notice.text}
          </p>
        ) : null}
      </section>

      <div className="replay-grid">
        <section className="card replay-timeline" aria-label="Timeline">
          <h2>Timeline</h2>
          <p className="small muted">The history at step N holds events 1 to N. Pick an event to stop right after it.</p>
          <ol className="replay-events" ref={listRef} data-testid="replay-events">
            <li className={`replay-event${step === 0 ? " is-current" : ""}`}>
              <button type="button" className="replay-event-button" onClick={() => setStep(0)} aria-current={step === 0 ? "step" : undefined}>
                <span className="replay-event-index">0</span>
                <span className="replay-event-kind" />
                <span className="replay-event-text muted">(empty history)</span>
              </button>
            </li>
            {first > 0 ? <li className="replay-gap small muted">… {first.toLocaleString("en-US")} earlier events</li> : null}
            {trace.events.slice(first, last).map((event, offset) => {
              const index = first + offset;
              const included = index < step;
              const isPending = included && event.kind === "tool_call" && pending.has(event.callId);
              const classes = ["replay-event", included ? "is-included" : "is-later", index === step - 1 ? "is-current" : "", isPending ? "is-pending" : "", `kind-${event.kind}`]
                .filter(Boolean)
                .join(" ");
              return (
                <li key={index} className={classes}>
                  <button type="button" className="replay-event-button" onClick={() => setStep(index + 1)} aria-current={index === step - 1 ? "step" : undefined}>
                    <span className="replay-event-index">{index + 1}</span>
                    <span className="replay-event-kind">{eventKindLabel(event)}</span>
                    <span className="replay-event-text">{present(eventSummary(event))}</span>
                    {isPending ? <span className="badge badge-pending">pending</span> : null}
                    {event.kind === "tool_result" && event.isError ? <span className="badge badge-bad">error</span> : null}
                  </button>
                </li>
              );
            })}
            {last < total ? <li className="replay-gap small muted">… {(total - last).toLocaleString("en-US")} later events</li> : null}
          </ol>
          {Object.keys(trace.omitted).length > 0 ? (
            <p className="small muted replay-omitted">
              Not model-visible, left out of the steps:{" "}
              {Object.entries(trace.omitted)
                .map(([kind, count]) => `${kind.replace("_", " ")} (${count})`)
                .join(", ")}
              .
            </p>
          ) : null}
        </section>

        <section className="card replay-history" aria-label="Message history">
          <div className="panel-header">
            <h2>
              History at step {renderedStep} · {REPLAY_VENDOR_LABELS[renderedVendor]}
            </h2>
            {stale ? <span className="small muted">updating…</span> : null}
          </div>
          {pendingList.length > 0 ? (
            <div className="replay-pending" data-testid="replay-pending">
              <strong>Pending at this step:</strong>{" "}
              {pendingList.map((callId) => (
                <span key={callId} className="badge badge-pending mono">
                  {present(`${callNames.get(callId) ?? "call"} ${callId}`)}
                </span>
              ))}
              <p className="small muted">The model asked for these; the request is sendable once a result for each is appended.</p>
            </div>
          ) : null}
          {history !== null && history.skipped.length > 0 ? (
            <details className="replay-skipped">
              <summary>
                {history.skipped.length} event{history.skipped.length === 1 ? "" : "s"} left out of this encoding
              </summary>
              <ul className="small">
                {history.skipped.map((skipped) => (
                  <li key={`${skipped.index}:${skipped.part ?? ""}`}>
                    Event {skipped.index + 1}: {present(skipped.reason)}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {history !== null ? <ReplayAdjustments adjustments={history.adjustments} /> : null}
          {history !== null && Object.keys(history.renamedCallIds).length > 0 ? (
            <p className="small muted">
              Ids renamed to the vendor&apos;s pattern:{" "}
              {Object.entries(history.renamedCallIds)
                .map(([from, to]) => `${present(from)} → ${present(to)}`)
                .join(", ")}
            </p>
          ) : null}
          {error !== null ? (
            <p role="alert" className="replay-notice replay-notice-bad">
              This step cannot be rendered as {vendorLabel}: {error}
            </p>
          ) : (
            <>
              <p className="small muted">Shown with secret-looking strings masked and invisible characters marked; Copy and Download give the exact JSON.</p>
              {shown.hiddenItems > 0 || shown.hiddenChars > 0 ? (
                <p className="small replay-truncated">
                  {shown.hiddenItems > 0
                    ? `Showing the last ${SHOWN_ITEMS} of ${shown.totalItems.toLocaleString("en-US")} ${HISTORY_ARRAY[renderedVendor]}`
                    : "Showing the end of the history"}
                  {shown.hiddenChars > 0 ? `, from character ${shown.hiddenChars.toLocaleString("en-US")} on` : ""}: where this step is. Copy and Download give all of
                  it.
                </p>
              ) : null}
              <pre className={`raw replay-json${stale ? " is-stale" : ""}`} tabIndex={0} aria-label={`${REPLAY_VENDOR_LABELS[renderedVendor]} request JSON at step ${renderedStep}`} data-testid="replay-json">
                {shown.hiddenChars > 0 ? "…\n" : ""}
                {shown.text}
              </pre>
            </>
          )}
          {current !== undefined ? (
            <details className="replay-current">
              <summary>Event {step} as recorded ({current.path})</summary>
              <pre className="raw">{present(JSON.stringify(current.raw, null, 2) ?? "null")}</pre>
            </details>
          ) : null}
        </section>
      </div>
    </div>
  );
}
