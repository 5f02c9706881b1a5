"use client";
// Quick edits of a result envelope (seed: tool-result-envelope): success, confidence, nextAction and the error
// type, written back into the result's JSON text (other fields and the text's layout kept). Shown only when the
// text is a JSON object that looks like an envelope.
import { detectEnvelope } from "@/lib/results/envelope.ts";

const NEXT_ACTIONS = ["continue", "retry", "ask_user", "human_review", "stop"] as const;
const ERROR_TYPES = [
  "validation_error",
  "permission_denied",
  "timeout",
  "rate_limited",
  "not_found",
  "state_conflict",
  "unknown",
] as const;

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : null;
  } catch {
    return null;
  }
}

/** The text with `fields` merged in; an indented text stays indented. */
export function mergeEnvelope(text: string, fields: Record<string, unknown>): string {
  const object = parseObject(text) ?? {};
  const merged = { ...object, ...fields };
  return /\n\s/.test(text) ? JSON.stringify(merged, null, 2) : JSON.stringify(merged);
}

export function EnvelopeFields({
  text,
  callId,
  onChange,
}: {
  text: string;
  callId: string;
  onChange: (text: string) => void;
}) {
  const object = parseObject(text);
  if (object === null || detectEnvelope(text).kind === "none") return null;
  const error = typeof object.error === "object" && object.error !== null ? { ...object.error } : null;
  const errorType = error !== null && "type" in error && typeof error.type === "string" ? error.type : "";
  return (
    <fieldset className="fork-envelope" aria-label={`Envelope of ${callId}`}>
      <legend className="field-label">Envelope</legend>
      <label className="toolbar-check">
        <input
          type="checkbox"
          checked={object.success === true}
          onChange={(event) => onChange(mergeEnvelope(text, { success: event.target.checked }))}
        />{" "}
        success
      </label>
      <label className="field">
        <span className="field-label">confidence</span>
        <input
          className="input"
          type="number"
          min={0}
          max={1}
          // Any value: a recorded 0.32 or 0.88 must not fail the browser's step check on a field nobody touched.
          step="any"
          value={typeof object.confidence === "number" ? object.confidence : ""}
          onChange={(event) =>
            onChange(mergeEnvelope(text, { confidence: event.target.value === "" ? null : Number(event.target.value) }))
          }
        />
      </label>
      <label className="field">
        <span className="field-label">nextAction</span>
        <select
          className="input"
          value={typeof object.nextAction === "string" ? object.nextAction : ""}
          onChange={(event) =>
            onChange(mergeEnvelope(text, { nextAction: event.target.value === "" ? null : event.target.value }))
          }
        >
          <option value="">(none)</option>
          {NEXT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">error type</span>
        <select
          className="input"
          value={errorType}
          onChange={(event) =>
            onChange(
              mergeEnvelope(text, {
                error: event.target.value === "" ? null : { ...(error ?? { message: "" }), type: event.target.value },
              }),
            )
          }
        >
          <option value="">(no error)</option>
          {ERROR_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
