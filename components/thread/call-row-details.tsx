"use client";
// The expanded part of a timeline call row: the call's arguments and timing, fetched when first opened.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { ArgumentsView } from "@/components/result/arguments-view.tsx";
import { LargeText } from "@/components/result/large-text.tsx";
import type { CallInfo, MaskedResultText } from "@/lib/calls/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { CallBrief } from "@/lib/threads/schemas.ts";
import { fetchJson } from "@/components/ui/fetch-json.ts";

/** The newest result's whole text, fetched only when asked for. */
function FullResultText({ resultId }: { resultId: number }) {
  const text = useQuery({
    queryKey: queryKeys.resultText(resultId),
    // Masked on the server (the exact bytes stay on /api/results/{id}/text, linked from the call page).
    queryFn: ({ signal }) => fetchJson<MaskedResultText>(`/api/results/${resultId}/masked-text`, signal),
    staleTime: Infinity,
  });
  if (text.isPending) return <p className="muted small">Loading the text…</p>;
  if (text.isError) return <p className="notice notice-bad small">Could not load the text: {text.error.message}</p>;
  return <LargeText text={text.data.text} label="Result text" className="code-block" />;
}

export function CallRowDetails({ call }: { call: CallBrief }) {
  const [fullText, setFullText] = useState(false);
  const info = useQuery({
    queryKey: queryKeys.callInfo(call.id),
    queryFn: ({ signal }) => fetchJson<CallInfo>(`/api/calls/${call.id}?view=call`, signal),
    staleTime: 30_000,
  });
  const latest = call.latestResult;
  return (
    <div className="tl-details" data-testid="call-row-details">
      <dl className="kv small">
        <dt>call_id</dt>
        <dd className="mono">{call.callId === null ? "—" : presentUntrustedText(call.callId)}</dd>
        <dt>Requested</dt>
        <dd className="mono">{call.requestedAt}</dd>
        {call.deadlineAt ? (
          <>
            <dt>Deadline</dt>
            <dd className="mono">{call.deadlineAt}</dd>
          </>
        ) : null}
        {call.completedAt ? (
          <>
            <dt>Completed</dt>
            <dd className="mono">{call.completedAt}</dd>
          </>
        ) : null}
        {call.subscription ? (
          <>
            <dt>Subscription</dt>
            <dd>{call.subscription}</dd>
          </>
        ) : null}
      </dl>
      {info.isPending ? (
        <p className="muted small" role="status">
          Loading arguments…
        </p>
      ) : null}
      {info.isError ? (
        <p className="notice notice-bad small" role="alert">
          Could not load the arguments: {info.error.message}
        </p>
      ) : null}
      {info.data ? <ArgumentsView args={info.data.arguments} /> : null}
      {latest ? (
        <div className="tl-details-result">
          <div className="small muted">
            Result #{latest.ordinal + 1} · {latest.textBytes.toLocaleString("en-US")} bytes
          </div>
          {fullText ? (
            <FullResultText resultId={latest.id} />
          ) : (
            <pre className="raw code-block small">
              {latest.preview}
              {latest.previewTruncated ? "…" : ""}
            </pre>
          )}
          {latest.previewTruncated && !fullText ? (
            <button type="button" className="link-button small" onClick={() => setFullText(true)}>
              Show the whole text
            </button>
          ) : null}
        </div>
      ) : null}
      <Link href={`/calls/${call.id}`} className="button">
        Open result detail →
      </Link>
    </div>
  );
}
