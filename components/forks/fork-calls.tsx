"use client";
// The calls a fork's model asked for, and how each pending one gets its result: from the recording (the
// original's result for the same tool and arguments; no tool runs), typed by hand, or by a runtime posting to
// /api/callback with the fork's group_id (shown ready to copy).
import Link from "next/link";
import { useState } from "react";
import { StatusBadge } from "@/components/ui/status-badge.tsx";
import { callHref } from "@/components/ui/hrefs.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ForkCallView } from "@/lib/forks/schemas.ts";

const ANSWERED_BY: Record<NonNullable<ForkCallView["answeredBy"]>, string> = {
  recording: "from the recording",
  manual: "typed by hand",
  callback: "by a runtime (callback)",
  history: "copied history",
};

type Props = {
  groupId: string;
  calls: ForkCallView[];
  busy: boolean;
  onAnswer: (callKey: string, body: { from: "recording" } | { text: string }) => Promise<void>;
};

function PendingAnswer({
  groupId,
  call,
  busy,
  onAnswer,
}: {
  groupId: string;
  call: ForkCallView;
  busy: boolean;
  onAnswer: Props["onAnswer"];
}) {
  const [text, setText] = useState("");
  const callback = JSON.stringify({ type: "tool_result", group_id: groupId, id: call.callKey, text: "…" });
  return (
    <div className="fork-answer-options">
      {call.recording !== null ? (
        <div className="fork-answer-option">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void onAnswer(call.callKey, { from: "recording" })}
          >
            Answer from the recording
          </button>
          <span className="small muted">
            {" "}
            as <Link href={callHref(call.recording.callRowId)}>
              {presentUntrustedText(call.recording.callKey)}
            </Link>{" "}
            answered: <code>{call.recording.preview}</code>
          </span>
        </div>
      ) : (
        <p className="small muted">
          The original never made this call with these arguments: no recording to answer from.
        </p>
      )}
      <div className="fork-answer-option">
        <label className="field field-grow">
          <span className="field-label">Result for {presentUntrustedText(call.callKey)}, by hand</span>
          <textarea
            className="input fork-textarea mono"
            rows={2}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button"
          disabled={busy || text === ""}
          onClick={() => void onAnswer(call.callKey, { text }).then(() => setText(""))}
        >
          Answer by hand
        </button>
      </div>
      <details className="small">
        <summary>…or let a runtime run the tool</summary>
        <pre className="raw">{`POST /api/callback\n${callback}`}</pre>
      </details>
    </div>
  );
}

export function ForkCalls({ groupId, calls, busy, onAnswer }: Props) {
  if (calls.length === 0) return <p className="muted small">The model has asked for no tool call yet.</p>;
  return (
    <ol className="fork-calls">
      {calls.map((call) => (
        <li
          key={call.callKey}
          className="fork-call"
          data-testid="fork-call"
          aria-label={`${call.toolName} ${call.callKey}`}
        >
          <div className="fork-call-head">
            <Link className="mono" href={callHref(call.callRowId)}>
              {presentUntrustedText(`${call.toolName}(${call.argumentsPreview})`)}
            </Link>
            <StatusBadge status={call.status} />
            {call.answeredBy !== null ? (
              <span
                className={`badge ${call.answeredBy === "recording" ? "badge-pending" : "badge-neutral"}`}
                data-testid="fork-call-answered-by"
              >
                {ANSWERED_BY[call.answeredBy]}
              </span>
            ) : null}
            {call.turn !== null ? <span className="small muted">step {call.turn}</span> : null}
          </div>
          {call.recordedFrom !== null ? (
            <p className="small muted">
              Recorded result of{" "}
              {call.recordedFrom.callRowId !== null ? (
                <Link href={callHref(call.recordedFrom.callRowId)}>
                  {presentUntrustedText(call.recordedFrom.callKey)}
                </Link>
              ) : (
                presentUntrustedText(call.recordedFrom.callKey)
              )}{" "}
              in {presentUntrustedText(call.recordedFrom.groupId)}; no tool ran.
            </p>
          ) : null}
          {call.resultPreview !== null ? <pre className="raw fork-call-result">{call.resultPreview}</pre> : null}
          {call.status === "pending" ? (
            <PendingAnswer groupId={groupId} call={call} busy={busy} onAnswer={onAnswer} />
          ) : null}
        </li>
      ))}
    </ol>
  );
}
