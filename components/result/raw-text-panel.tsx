"use client";
// The raw result text, always reachable: exact size and sha256, a copy button that copies the ORIGINAL
// text from the byte-exact route (the page only holds the masked view), a download of the exact bytes, and "show all" for texts cut for the page.
import { useState } from "react";
import type { MaskedResultText, TextHead } from "@/lib/calls/schemas.ts";
import { fetchJson, fetchText } from "@/components/ui/fetch-json.ts";
import { formatBytes } from "@/components/ui/format.ts";
import { LargeText } from "./large-text.tsx";

type Props = { resultId: number; text: TextHead; sha256: string; bytes: number; revealSecrets: boolean };

export function RawTextPanel({ resultId, text, sha256, bytes, revealSecrets }: Props) {
  const url = `/api/results/${resultId}/text`;
  const [full, setFull] = useState<string | null>(text.complete ? text.head : null);
  const [loading, setLoading] = useState(false);
  const [message, setMessage] = useState("");

  const showAll = async () => {
    setLoading(true);
    try {
      // The masked whole text: the page never holds a secret (reveals go through the Masked values panel).
      setFull((await fetchJson<MaskedResultText>(`/api/results/${resultId}/masked-text`)).text);
    } catch (error) {
      setMessage(`Could not load the full text: ${error instanceof Error ? error.message : "unknown error"}`);
    } finally {
      setLoading(false);
    }
  };

  const copy = async () => {
    try {
      // Always from the byte-exact route: the page's own copy of the text is masked. Hand the clipboard a
      // promise so the user gesture still counts while the text downloads.
      const blob = fetchText(url).then((loaded) => new Blob([loaded.text], { type: "text/plain" }));
      await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
      setMessage(`Copied the original text (${formatBytes(bytes)}).`);
    } catch (error) {
      setMessage(
        `Copy failed: ${error instanceof Error ? error.message : "the browser refused"}. Use Download instead.`,
      );
    }
  };

  return (
    <div className="raw-panel" data-testid="raw-text-panel">
      <div className="raw-meta">
        <span>
          <span className="muted">size</span> {bytes.toLocaleString("en-US")} bytes ·{" "}
          {text.length.toLocaleString("en-US")} characters
        </span>
        <span className="sha">
          <span className="muted">sha256</span>{" "}
          <code className="mono" data-testid="raw-text-sha256">
            {sha256}
          </code>
        </span>
        <span className="raw-actions">
          <button type="button" className="button" onClick={() => void copy()}>
            Copy original
          </button>
          <a className="button" href={`${url}?download=1`} download={`result-${resultId}.txt`}>
            Download
          </a>
          <a className="button" href={url} target="_blank" rel="noreferrer noopener">
            Open exact bytes
          </a>
        </span>
        <span className="small muted raw-live" role="status" aria-live="polite">
          {message}
        </span>
      </div>
      <LargeText text={full ?? text.head} revealSecrets={revealSecrets} label="Raw result text" className="raw-text" />
      {full === null ? (
        <p className="small muted">
          Showing the first {text.head.length.toLocaleString("en-US")} of {text.length.toLocaleString("en-US")}{" "}
          characters.{" "}
          <button type="button" className="link-button" onClick={() => void showAll()} disabled={loading}>
            {loading ? "Loading…" : `Show all (${formatBytes(bytes)})`}
          </button>
        </p>
      ) : null}
    </div>
  );
}
