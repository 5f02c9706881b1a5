"use client";
// The replay's controls: first / previous / next / last, the step slider, the encoding, Copy and Download
// (the exact request JSON, read from the replay API at the step shown), and "Fork here".
import Link from "next/link";
import { useState } from "react";
import { newForkHref } from "@/components/forks/fork-api.ts";
import { REPLAY_VENDOR_LABELS, REPLAY_VENDORS, type ReplayVendorName } from "@/lib/traces/schemas.ts";
import { safeFileName } from "./trace-hrefs.ts";
import { fetchRequestJson } from "./use-replay-step.ts";

type Notice = { tone: "ok" | "bad"; text: string; step: number; vendor: ReplayVendorName } | null;
const isVendor = (value: string): value is ReplayVendorName => REPLAY_VENDORS.some((vendor) => vendor === value);

type Props = {
  groupId: string;
  step: number;
  total: number;
  vendor: ReplayVendorName;
  currentLabel: string | null;
  pendingCount: number;
  canCopy: boolean;
  onStep: (step: number) => void;
  onVendor: (vendor: ReplayVendorName) => void;
};

// Over 80 lines: mostly markup (buttons, slider, encoding, copy/download); the logic is the two small handlers.
// eslint-disable-next-line max-lines-per-function -- one toolbar of controls (step buttons, slider, encoding, copy and download) as plain markup
export function ReplayControls({
  groupId,
  step,
  total,
  vendor,
  currentLabel,
  pendingCount,
  canCopy,
  onStep,
  onVendor,
}: Props) {
  const [notice, setNotice] = useState<Notice>(null);
  const vendorLabel = REPLAY_VENDOR_LABELS[vendor];

  const copy = async () => {
    try {
      const json = await fetchRequestJson(groupId, step, vendor);
      await navigator.clipboard.writeText(json);
      setNotice({
        tone: "ok",
        text: `Copied the ${vendorLabel} history at step ${step} (${json.length.toLocaleString("en-US")} characters).`,
        step,
        vendor,
      });
    } catch (copyError) {
      setNotice({
        tone: "bad",
        text: `Could not copy: ${copyError instanceof Error ? copyError.message : String(copyError)}. Use Download instead.`,
        step,
        vendor,
      });
    }
  };
  const download = async () => {
    try {
      const json = await fetchRequestJson(groupId, step, vendor);
      const url = URL.createObjectURL(new Blob([`${json}\n`], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `${safeFileName(groupId, vendor, `step-${step}`)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      // Revoked a moment later: some browsers read the blob after click() returns.
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (downloadError) {
      setNotice({
        tone: "bad",
        text: `Could not download: ${downloadError instanceof Error ? downloadError.message : String(downloadError)}.`,
        step,
        vendor,
      });
    }
  };

  return (
    <section className="card replay-controls" aria-label="Replay controls">
      <div className="replay-step-row">
        <div className="replay-buttons">
          <button
            type="button"
            className="button"
            onClick={() => onStep(0)}
            disabled={step === 0}
            aria-label="First step"
          >
            « First
          </button>
          <button
            type="button"
            className="button"
            onClick={() => onStep(step - 1)}
            disabled={step === 0}
            aria-label="Previous step"
          >
            ‹ Previous
          </button>
          <button
            type="button"
            className="button"
            onClick={() => onStep(step + 1)}
            disabled={step === total}
            aria-label="Next step"
          >
            Next ›
          </button>
          <button
            type="button"
            className="button"
            onClick={() => onStep(total)}
            disabled={step === total}
            aria-label="Last step"
          >
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
            onChange={(event) => onStep(Number(event.target.value))}
            aria-label="Step"
            aria-valuetext={`Step ${step} of ${total}${currentLabel ? `: ${currentLabel}` : ""}`}
            data-testid="replay-slider"
          />
        </div>
        <output className="replay-position" aria-live="polite" data-testid="replay-position">
          Step <strong>{step}</strong> of {total}
          {pendingCount > 0 ? ` · ${pendingCount} pending` : ""}
        </output>
      </div>
      <div className="replay-actions">
        <label className="field">
          <span className="field-label">Encoding</span>
          <select
            className="input"
            value={vendor}
            onChange={(event) => {
              if (isVendor(event.target.value)) onVendor(event.target.value);
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
        <button type="button" className="button button-primary" onClick={() => void copy()} disabled={!canCopy}>
          Copy JSON
        </button>
        <button type="button" className="button" onClick={() => void download()} disabled={!canCopy}>
          Download JSON
        </button>
        {step > 0 ? (
          <Link className="button" href={newForkHref(groupId, { step })}>
            Fork here…
          </Link>
        ) : null}
        <span className="small muted replay-keys">
          Keys: <kbd>←</kbd> <kbd>→</kbd> <kbd>Home</kbd> <kbd>End</kbd>
        </span>
      </div>
      {notice !== null && notice.step === step && notice.vendor === vendor ? (
        <p
          className={`replay-notice replay-notice-${notice.tone}`}
          role={notice.tone === "bad" ? "alert" : "status"}
          data-testid="replay-notice"
        >
          {notice.text}
        </p>
      ) : null}
    </section>
  );
}
