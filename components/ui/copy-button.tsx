"use client";
// One click to copy a value the page shows (a call id, arguments, a curl command, a one-time API key). The
// button's accessible name says what it copies ("Copy call id"); after the click it says whether the browser
// took it, in a polite live region, and goes back after a moment. `value` is copied exactly as given: pass the
// original text, not the masked text on screen, only where showing it is already allowed.
import { useEffect, useState } from "react";
import "./copy-button.css";

type Outcome = "idle" | "copied" | "failed";

export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const [outcome, setOutcome] = useState<Outcome>("idle");
  useEffect(() => {
    if (outcome === "idle") return;
    const timer = setTimeout(() => setOutcome("idle"), 2000);
    return () => clearTimeout(timer);
  }, [outcome]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setOutcome("copied");
    } catch {
      setOutcome("failed");
    }
  };
  return (
    <span className="copy-button-wrap">
      <button
        type="button"
        className={className ?? "button button-small copy-button"}
        onClick={() => void copy()}
        aria-label={label}
        title={label}
      >
        {outcome === "copied" ? "Copied" : "Copy"}
      </button>
      <span className="sr-only" role="status">
        {outcome === "copied" ? "Copied." : outcome === "failed" ? "The browser did not allow copying." : ""}
      </span>
      {outcome === "failed" ? (
        <span className="small copy-failed" aria-hidden="true">
          Copy refused — select the text instead
        </span>
      ) : null}
    </span>
  );
}
