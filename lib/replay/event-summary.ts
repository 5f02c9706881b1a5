// One-line labels for canonical timeline events, for the replay's step list. Pure, client-safe; text only.
import type { CanonicalEvent } from "../formats/canonical.ts";

const PREVIEW = 140;

function preview(text: string, limit = PREVIEW): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

export function eventKindLabel(event: CanonicalEvent): string {
  switch (event.kind) {
    case "message":
      return event.role;
    case "reasoning":
      return "reasoning";
    case "tool_call":
      return "call";
    case "tool_result":
      return "result";
    case "error":
      return "error";
    case "protocol":
      return "protocol";
  }
}

export function eventSummary(event: CanonicalEvent): string {
  switch (event.kind) {
    case "message":
      return preview(event.text) || "(no text)";
    case "reasoning":
      return event.redacted ? "(redacted reasoning)" : preview(event.text) || "(empty reasoning)";
    case "tool_call":
      return `${event.name}(${preview(event.argumentsText, 90)})`;
    case "tool_result":
      return `${event.callId} → ${preview(event.text, 110) || "(no text)"}`;
    case "error":
      return `${event.layer}${event.callId === undefined ? "" : ` ${event.callId}`}: ${preview(event.message)}`;
    case "protocol":
      return `${event.direction === undefined ? "" : `${event.direction} `}${preview(event.text)}`;
  }
}
