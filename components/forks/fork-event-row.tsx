"use client";
// One event of the fork form's history list, with the edits it allows: a call's arguments, a result's text and
// display segments, dropping it, inserting a message after it. Untrusted text is shown masked, edited as is.
import { useState } from "react";
import { eventKindLabel, eventSummary } from "@/lib/replay/event-summary.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { CanonicalEvent } from "@/lib/formats/canonical.ts";
import { EnvelopeFields } from "./envelope-fields.tsx";
import type { ForkDraft, InsertedMessage } from "./fork-draft.ts";

export type DraftChange =
  | { kind: "result"; call: string; text: string | null }
  | { kind: "arguments"; call: string; text: string | null }
  | { kind: "display"; call: string; json: string | null }
  | { kind: "drop"; index: number; dropped: boolean }
  | { kind: "insert"; after: number; messages: InsertedMessage[] };

type Props = {
  event: CanonicalEvent;
  index: number;
  draft: ForkDraft;
  focus: boolean;
  onChange: (change: DraftChange) => void;
};

export function InsertedMessages({
  after,
  messages,
  onChange,
}: {
  after: number;
  messages: readonly InsertedMessage[];
  onChange: (change: DraftChange) => void;
}) {
  const update = (position: number, message: InsertedMessage | null) => {
    const next = messages.flatMap((current, at) => (at !== position ? [current] : message === null ? [] : [message]));
    onChange({ kind: "insert", after, messages: next });
  };
  return (
    <>
      {messages.map((message, position) => (
        <li key={position} className="fork-event fork-inserted" data-testid="fork-inserted-message">
          <span className="fork-event-index">+</span>
          <div className="fork-event-body">
            <div className="fork-inserted-row">
              <label className="field">
                <span className="field-label">Inserted message role</span>
                <select
                  className="input"
                  value={message.role}
                  onChange={(event) =>
                    update(position, {
                      ...message,
                      role:
                        event.target.value === "system"
                          ? "system"
                          : event.target.value === "assistant"
                            ? "assistant"
                            : "user",
                    })
                  }
                >
                  <option value="user">user</option>
                  <option value="system">system</option>
                  <option value="assistant">assistant</option>
                </select>
              </label>
              <button type="button" className="button button-small" onClick={() => update(position, null)}>
                Remove
              </button>
            </div>
            <textarea
              className="input fork-textarea"
              aria-label="Inserted message text"
              value={message.text}
              rows={3}
              onChange={(event) => update(position, { ...message, text: event.target.value })}
            />
          </div>
        </li>
      ))}
    </>
  );
}

// eslint-disable-next-line max-lines-per-function -- grew past the cap when Prettier wrapped it at 120 columns; split along its seams when next changed
export function ForkEventRow({ event, index, draft, focus, onChange }: Props) {
  const callId = event.kind === "tool_call" || event.kind === "tool_result" ? event.callId : null;
  const [open, setOpen] = useState(focus);
  const dropped = draft.dropped.has(index);
  const resultText = callId !== null && event.kind === "tool_result" ? (draft.results.get(callId) ?? event.text) : null;
  const argumentsText =
    callId !== null && event.kind === "tool_call" ? (draft.arguments.get(callId) ?? event.argumentsText) : null;
  const edited =
    callId !== null &&
    ((event.kind === "tool_result" &&
      ((draft.results.has(callId) && draft.results.get(callId) !== event.text) || draft.displays.has(callId))) ||
      (event.kind === "tool_call" &&
        draft.arguments.has(callId) &&
        draft.arguments.get(callId) !== event.argumentsText));
  const editable = event.kind === "tool_result" || event.kind === "tool_call";
  return (
    <li
      className={`fork-event${dropped ? " is-dropped" : ""}${edited ? " is-edited" : ""}`}
      data-testid="fork-event"
      data-index={index}
    >
      <span className="fork-event-index">{index + 1}</span>
      <div className="fork-event-body">
        <div className="fork-event-head">
          <span className="fork-event-kind">{eventKindLabel(event)}</span>
          <span className="fork-event-text">{presentUntrustedText(eventSummary(event))}</span>
          {edited ? <span className="badge badge-pending">edited</span> : null}
          {dropped ? <span className="badge badge-warn">dropped</span> : null}
          <span className="fork-event-actions">
            {editable ? (
              <button type="button" className="button button-small" aria-expanded={open} onClick={() => setOpen(!open)}>
                {event.kind === "tool_result" ? "Edit result" : "Edit arguments"}
              </button>
            ) : null}
            <label className="toolbar-check">
              <input
                type="checkbox"
                checked={dropped}
                onChange={(change) => onChange({ kind: "drop", index, dropped: change.target.checked })}
              />{" "}
              Drop
            </label>
            <button
              type="button"
              className="button button-small"
              onClick={() =>
                onChange({
                  kind: "insert",
                  after: index,
                  messages: [...(draft.inserts.get(index) ?? []), { role: "user", text: "" }],
                })
              }
            >
              Insert after
            </button>
          </span>
        </div>
        {open && callId !== null && resultText !== null ? (
          <div className="fork-editor">
            <label className="field">
              <span className="field-label">Result text of {callId} (what the model sees)</span>
              <textarea
                className="input fork-textarea mono"
                value={resultText}
                rows={Math.min(14, Math.max(3, resultText.split("\n").length + 1))}
                onChange={(change) => onChange({ kind: "result", call: callId, text: change.target.value })}
              />
            </label>
            <EnvelopeFields
              text={resultText}
              callId={callId}
              onChange={(text) => onChange({ kind: "result", call: callId, text })}
            />
            <label className="field">
              <span className="field-label">
                Display segments (JSON array, for people; empty keeps the original&apos;s)
              </span>
              <textarea
                className="input fork-textarea mono"
                rows={2}
                placeholder='[{"type": "text", "content": "…"}]'
                value={draft.displays.get(callId) ?? ""}
                onChange={(change) =>
                  onChange({
                    kind: "display",
                    call: callId,
                    json: change.target.value === "" ? null : change.target.value,
                  })
                }
              />
            </label>
            <button
              type="button"
              className="button button-small"
              onClick={() => onChange({ kind: "result", call: callId, text: null })}
            >
              Restore the recorded result
            </button>
          </div>
        ) : null}
        {open && callId !== null && argumentsText !== null ? (
          <div className="fork-editor">
            <label className="field">
              <span className="field-label">Arguments of {callId} (sent as the model&apos;s own)</span>
              <textarea
                className="input fork-textarea mono"
                value={argumentsText}
                rows={3}
                onChange={(change) => onChange({ kind: "arguments", call: callId, text: change.target.value })}
              />
            </label>
          </div>
        ) : null}
      </div>
    </li>
  );
}
