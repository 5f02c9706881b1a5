"use client";
// Step-through replay: controls over the canonical timeline and the message history at that step in the
// chosen encoding. The server renders each step and sends only what the page shows (use-replay-step.ts), so a
// 100k-event thread costs the browser the same as a short one.
import type { ReplayStepView } from "@/lib/traces/schemas.ts";
import { ReplayControls } from "./replay-controls.tsx";
import { ReplayHistoryPanel } from "./replay-history-panel.tsx";
import { ReplayStepList } from "./replay-step-list.tsx";
import { useReplayStep } from "./use-replay-step.ts";

export function ReplayViewer({ initial }: { initial: ReplayStepView }) {
  const { step, setStep, vendor, setVendor, view, stale, error } = useReplayStep(initial);
  const current = view.list.find((item) => item.index === step - 1);
  return (
    <div className="replay">
      <ReplayControls
        groupId={view.groupId}
        step={step}
        total={view.total}
        vendor={vendor}
        currentLabel={current?.label ?? null}
        pendingCount={stale ? 0 : (view.history?.pendingTotal ?? 0)}
        canCopy={view.history !== null}
        onStep={setStep}
        onVendor={setVendor}
      />
      {error !== null ? (
        <p className="notice notice-bad" role="alert">
          Could not load step {step}: {error}
        </p>
      ) : null}
      <div className="replay-grid">
        <ReplayStepList items={view.list} step={step} total={view.total} omitted={view.omitted} onStep={setStep} />
        <ReplayHistoryPanel view={view} stale={stale} />
      </div>
    </div>
  );
}
