"use client";
// A fork's page body: its turns as they stream in (polled from what the server stores, so it survives proxies,
// reloads and a closed tab), the model's calls and their answers, Continue / Stop, and the way to the comparison.
// Owns: nothing durable; react-query holds the latest polled fork.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { compareHref, replayHref } from "@/components/replay/trace-hrefs.ts";
import { fetchJson } from "@/components/ui/fetch-json.ts";
import { threadHref } from "@/components/ui/hrefs.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { FORK_STATUS_LABELS, type ForkView } from "@/lib/forks/schemas.ts";
import { ApiError, postJson } from "@/components/ui/fetch-json.ts";
import { forkApiPath } from "./fork-api.ts";
import { ForkCalls } from "./fork-calls.tsx";
import { TurnCard, UsageFigures } from "./fork-turn-card.tsx";
import "./forks.css";

/** While the model answers, the page polls often enough to look like streaming; otherwise it only watches for callbacks. */
const STREAMING_POLL_MS = 400;
const IDLE_POLL_MS = 2000;

const STATUS_BADGE: Record<ForkView["status"], string> = {
  running: "badge-pending",
  awaiting_results: "badge-warn",
  finished: "badge-ok",
  step_limit: "badge-warn",
  failed: "badge-bad",
  cancelled: "badge-neutral",
};

/** The fork's status, origin, usage and actions (Continue, Stop, compare, timeline, replay). */
function ForkSummary(props: {
  fork: ForkView;
  stale: boolean;
  busy: boolean;
  problem: string | null;
  act: (path: string, body: unknown) => Promise<void>;
}) {
  const { fork, stale, busy, problem, act } = props;
  return (
    <section className="card fork-summary" aria-label="Fork">
      <div className="fork-summary-row">
        <span className={`badge ${STATUS_BADGE[fork.status]}`} data-testid="fork-status">
          {FORK_STATUS_LABELS[fork.status]}
        </span>
        <span className="small">
          Fork of{" "}
          {fork.forkOf.exists ? (
            <Link className="mono" href={replayHref(fork.forkOf.groupId, { step: fork.forkOf.atStep })}>
              {presentUntrustedText(fork.forkOf.groupId)}
            </Link>
          ) : (
            <span className="mono">{presentUntrustedText(fork.forkOf.groupId)} (deleted)</span>
          )}{" "}
          at step {fork.forkOf.atStep} · {fork.edits.length} edit{fork.edits.length === 1 ? "" : "s"} · target{" "}
          <strong>{fork.target.name}</strong> ({fork.target.api}, {fork.target.model}) · {fork.completedTurns} of{" "}
          {fork.maxTurns} turns
        </span>
        {stale ? <span className="small muted">(not updating: the server did not answer the last poll)</span> : null}
      </div>
      <UsageFigures usage={fork.usage} label="Tokens used by this fork" />
      <div className="toolbar fork-actions" role="group" aria-label="Fork actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy || !fork.canContinue}
          onClick={() => void act(forkApiPath(fork.groupId, "/continue"), { wait: false })}
        >
          Continue
        </button>
        {fork.status === "running" ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void act(forkApiPath(fork.groupId, "/stop"), {})}
          >
            Stop
          </button>
        ) : null}
        {fork.forkOf.exists ? (
          <Link className="button" href={compareHref(fork.forkOf.groupId, fork.groupId)}>
            Compare with the original
          </Link>
        ) : null}
        <Link className="button" href={threadHref(fork.groupId)}>
          Timeline
        </Link>
        <Link className="button" href={replayHref(fork.groupId)}>
          Replay
        </Link>
        {fork.continueBlocked !== null ? (
          <span className="small muted" data-testid="fork-continue-blocked">
            {fork.continueBlocked}
          </span>
        ) : null}
      </div>
      {problem !== null ? (
        <p className="replay-notice replay-notice-bad" role="alert" data-testid="fork-action-error">
          {problem}
        </p>
      ) : null}
    </section>
  );
}

export function ForkRun({ initial }: { initial: ForkView }) {
  const queryClient = useQueryClient();
  const key = queryKeys.fork(initial.groupId);
  const { data, isError } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchJson<ForkView>(forkApiPath(initial.groupId), signal),
    initialData: initial,
    initialDataUpdatedAt: () => Date.now(),
    refetchInterval: (query) => ((query.state.data ?? initial).status === "running" ? STREAMING_POLL_MS : IDLE_POLL_MS),
    refetchIntervalInBackground: false,
    retry: false,
  });
  const fork = data ?? initial;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const act = async (path: string, body: unknown) => {
    setBusy(true);
    setProblem(null);
    try {
      await postJson(path, body);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    } finally {
      await queryClient.invalidateQueries({ queryKey: key });
      setBusy(false);
    }
  };

  return (
    <div className="fork-run">
      <ForkSummary fork={fork} stale={isError} busy={busy} problem={problem} act={act} />

      <div className="fork-grid">
        <section aria-label="Model turns" className="fork-turns">
          <h2>Model turns</h2>
          {fork.turns.length === 0 ? <p className="card muted">No turn yet.</p> : null}
          {fork.turns.map((turn) => (
            <TurnCard key={turn.ordinal} turn={turn} />
          ))}
        </section>
        <section className="card" aria-label="Tool calls of the fork">
          <h2>Tool calls</h2>
          <ForkCalls
            groupId={fork.groupId}
            calls={fork.calls}
            busy={busy}
            onAnswer={(callKey, body) =>
              act(forkApiPath(fork.groupId, `/calls/${encodeURIComponent(callKey)}/answer`), body)
            }
          />
        </section>
      </div>
    </div>
  );
}
