"use client";
// The fork form: pick the step and the model target, edit what the model will see (results, arguments, display
// segments, dropped and inserted messages), and run. The history and its unanswered calls are checked here with
// the same pure function the server uses, so a fork that would be refused says why before it is sent.
// Owns: the draft edits (browser memory only) and the step/target choice.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { applyForkEdits, ForkEditError } from "@/lib/forks/edits.ts";
import type { ForkCreated } from "@/lib/forks/schemas.ts";
import { DEFAULT_MAX_TURNS, MAX_MAX_TURNS } from "@/lib/forks/schemas.ts";
import { MODEL_API_LABELS, type ModelTargetView } from "@/lib/models/schemas.ts";
import type { CanonicalEvent } from "@/lib/formats/canonical.ts";
import { ApiError, postJson } from "@/components/ui/fetch-json.ts";
import { forkPageHref } from "./fork-api.ts";
import { draftEdits, EMPTY_DRAFT, type ForkDraft } from "./fork-draft.ts";
import { ForkEventRow, InsertedMessages, type DraftChange } from "./fork-event-row.tsx";
import "./forks.css";

type Props = {
  groupId: string;
  events: CanonicalEvent[];
  targets: ModelTargetView[];
  targetsProblem: string | null;
  initialStep: number;
  focusCall: string | null;
};

// The list shows the events right before the step (where edits usually are); older ones are a click away.
const LIST_WINDOW = 150;

function applyChange(draft: ForkDraft, change: DraftChange): ForkDraft {
  const withEntry = <K, V>(map: ReadonlyMap<K, V>, key: K, value: V | null): Map<K, V> => {
    const next = new Map(map);
    if (value === null) next.delete(key);
    else next.set(key, value);
    return next;
  };
  switch (change.kind) {
    case "result":
      return { ...draft, results: withEntry(draft.results, change.call, change.text) };
    case "arguments":
      return { ...draft, arguments: withEntry(draft.arguments, change.call, change.text) };
    case "display":
      return { ...draft, displays: withEntry(draft.displays, change.call, change.json) };
    case "drop": {
      const dropped = new Set(draft.dropped);
      if (change.dropped) dropped.add(change.index);
      else dropped.delete(change.index);
      return { ...draft, dropped };
    }
    case "insert":
      return {
        ...draft,
        inserts: withEntry(draft.inserts, change.after, change.messages.length === 0 ? null : change.messages),
      };
  }
}

/** Why the fork cannot start (no targets, a problem in the edits) or why starting it failed. */
function ForkNotices({
  targets,
  targetsProblem,
  blocked,
  failure,
}: {
  targets: Props["targets"];
  targetsProblem: string | null;
  blocked: string | null;
  failure: string | null;
}) {
  return (
    <>
      {targetsProblem !== null ? (
        <p role="alert" className="replay-notice replay-notice-bad">
          {targetsProblem}
        </p>
      ) : null}
      {targets.length === 0 && targetsProblem === null ? (
        <p className="replay-notice replay-notice-bad" role="alert">
          No model targets are configured. Set TOOLSCOPE_MODELS on the server (see{" "}
          <Link href="/settings/models">Model targets</Link>).
        </p>
      ) : null}
      {blocked !== null && targets.length > 0 ? (
        <p className="replay-notice replay-notice-bad" data-testid="fork-blocked">
          {blocked}
        </p>
      ) : null}
      {failure !== null ? (
        <p className="replay-notice replay-notice-bad" role="alert" data-testid="fork-failure">
          {failure}
        </p>
      ) : null}
    </>
  );
}

type HistoryProps = {
  events: Props["events"];
  step: number;
  first: number;
  draft: ForkDraft;
  setDraft: (draft: ForkDraft) => void;
  focusCall: Props["focusCall"];
  onShowAll: () => void;
};

/** Events 1..step as the model will see them, each editable, with messages insertable between them. */
function ForkHistory({ events, step, first, draft, setDraft, focusCall, onShowAll }: HistoryProps) {
  return (
    <section className="card" aria-label="History the model will see">
      <h2>History the model will see</h2>
      <p className="small muted">
        Events 1 to {step} of the original. Edit a result or a call&apos;s arguments, drop events, insert messages; the
        rest is sent as recorded.
      </p>
      <ol className="fork-events">
        {first > 0 ? (
          <li className="replay-gap small muted">
            … {first.toLocaleString("en-US")} earlier events{" "}
            <button type="button" className="button button-small" onClick={onShowAll}>
              Show them
            </button>
          </li>
        ) : null}
        {first === 0 ? (
          <InsertedMessages
            after={-1}
            messages={draft.inserts.get(-1) ?? []}
            onChange={(change) => setDraft(applyChange(draft, change))}
          />
        ) : null}
        {events.slice(first, step).map((event, offset) => {
          const index = first + offset;
          const callId = event.kind === "tool_result" || event.kind === "tool_call" ? event.callId : null;
          return [
            <ForkEventRow
              key={`e${index}`}
              event={event}
              index={index}
              draft={draft}
              focus={callId !== null && callId === focusCall && event.kind === "tool_result"}
              onChange={(change) => setDraft(applyChange(draft, change))}
            />,
            <InsertedMessages
              key={`i${index}`}
              after={index}
              messages={draft.inserts.get(index) ?? []}
              onChange={(change) => setDraft(applyChange(draft, change))}
            />,
          ];
        })}
      </ol>
      {first === 0 ? (
        <button
          type="button"
          className="button button-small"
          onClick={() =>
            setDraft(
              applyChange(draft, {
                kind: "insert",
                after: -1,
                messages: [...(draft.inserts.get(-1) ?? []), { role: "system", text: "" }],
              }),
            )
          }
        >
          Insert a message first
        </button>
      ) : null}
    </section>
  );
}

// eslint-disable-next-line max-lines-per-function -- grew past the cap when Prettier wrapped it at 120 columns; split along its seams when next changed
export function ForkForm({ groupId, events, targets, targetsProblem, initialStep, focusCall }: Props) {
  const router = useRouter();
  const usable = targets.filter((target) => target.keyState !== "missing");
  const [step, setStep] = useState(Math.min(Math.max(1, initialStep), events.length));
  const [model, setModel] = useState(usable[0]?.name ?? "");
  const [maxTurns, setMaxTurns] = useState(DEFAULT_MAX_TURNS);
  const [draft, setDraft] = useState<ForkDraft>(EMPTY_DRAFT);
  const [showAll, setShowAll] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const { edits, problems } = useMemo(() => draftEdits(draft, events, step), [draft, events, step]);
  const check = useMemo(() => {
    try {
      const history = applyForkEdits(events, step, edits);
      return { pending: history.pendingCallIds, length: history.events.length, error: null };
    } catch (error) {
      return { pending: [], length: 0, error: error instanceof ForkEditError ? error.message : String(error) };
    }
  }, [events, step, edits]);
  const blocked =
    model === ""
      ? "Configure a model target first (TOOLSCOPE_MODELS)."
      : (problems[0] ??
        check.error ??
        (check.pending.length > 0
          ? `Give a result to ${check.pending.join(", ")}: a model API refuses a history with an unanswered call (or pick a later step).`
          : null));

  const first = showAll ? 0 : Math.max(0, step - LIST_WINDOW);
  const submit = async () => {
    setSending(true);
    setFailure(null);
    try {
      // wait: false — the turn runs on the server; its page shows the answer as it streams in.
      const created = await postJson<ForkCreated>(`/api/threads/${encodeURIComponent(groupId)}/forks`, {
        step,
        model,
        edits,
        max_turns: maxTurns,
        wait: false,
      });
      router.push(forkPageHref(created.group_id));
    } catch (error) {
      setFailure(error instanceof ApiError ? `${error.message} (HTTP ${error.status})` : String(error));
      setSending(false);
    }
  };

  return (
    <form
      className="fork-form"
      aria-label="Fork this thread"
      // The browser's own checks block a submit without a word at the button; the draft's problems and the
      // server's 422 say what is wrong instead.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <section className="card fork-settings" aria-label="Fork settings">
        <div className="fork-settings-row">
          <label className="field">
            <span className="field-label">Fork at step (events kept)</span>
            <input
              className="input"
              type="number"
              min={1}
              max={events.length}
              value={step}
              onChange={(event) => setStep(Math.min(events.length, Math.max(1, Number(event.target.value) || 1)))}
            />
          </label>
          <input
            className="fork-step-slider"
            type="range"
            min={1}
            max={events.length}
            value={step}
            aria-label="Step"
            onChange={(event) => setStep(Number(event.target.value))}
          />
          <label className="field">
            <span className="field-label">Model target</span>
            <select className="input" value={model} onChange={(event) => setModel(event.target.value)}>
              {targets.map((target) => (
                <option key={target.name} value={target.name} disabled={target.keyState === "missing"}>
                  {target.name} · {target.model}
                  {target.keyState === "missing" ? ` (key ${target.apiKeyEnv} not set)` : ""}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Step limit (model turns)</span>
            <input
              className="input"
              type="number"
              min={1}
              max={MAX_MAX_TURNS}
              value={maxTurns}
              onChange={(event) => setMaxTurns(Math.min(MAX_MAX_TURNS, Math.max(1, Number(event.target.value) || 1)))}
            />
          </label>
          <button type="submit" className="button button-primary" disabled={sending || blocked !== null}>
            {sending ? "Starting…" : "Fork and run"}
          </button>
        </div>
        <p className="small muted">
          {check.length.toLocaleString("en-US")} events go to{" "}
          {targets.find((target) => target.name === model)
            ? MODEL_API_LABELS[targets.find((target) => target.name === model)?.api ?? "openai-chat"]
            : "the model"}{" "}
          · {edits.length} edit{edits.length === 1 ? "" : "s"} · events after step {step} are left out
        </p>
        <ForkNotices targets={targets} targetsProblem={targetsProblem} blocked={blocked} failure={failure} />
      </section>

      <ForkHistory
        events={events}
        step={step}
        first={first}
        draft={draft}
        setDraft={setDraft}
        focusCall={focusCall}
        onShowAll={() => setShowAll(true)}
      />
    </form>
  );
}
