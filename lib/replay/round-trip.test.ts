// Round trips: a request body of vendor A, imported, replayed into A at the last step, equals the original except
// for the normalizations listed in lib/replay/README.md. The bodies are typed with the vendors' SDKs.
import { describe, expect, it } from "vitest";
import type { FormatName } from "../formats/canonical";
import { explainFormat, parseTranscriptText } from "../formats/detect";
import { anthropicRequest, chatRequest, geminiRequest, responsesRequest } from "./fixtures/vendor-requests";
import { renderHistory, stringifyRequest, type ReplayVendor } from "./render-history";

type Case = { vendor: ReplayVendor & FormatName; body: Record<string, unknown>; request: Record<string, unknown> };

function without<T extends Record<string, unknown>>(body: T, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
}

const CASES: Case[] = [
  { vendor: "anthropic", body: anthropicRequest, request: without(anthropicRequest, ["model", "max_tokens"]) },
  { vendor: "openai-chat", body: chatRequest, request: without(chatRequest, ["model"]) },
  { vendor: "openai-responses", body: responsesRequest, request: without(responsesRequest, ["model"]) },
  { vendor: "gemini", body: geminiRequest, request: geminiRequest },
];

describe.each(CASES)("$vendor → $vendor at the last step", ({ vendor, body, request }) => {
  // Imported exactly as a capture would be: the JSON text.
  const text = JSON.stringify(body);
  const trace = parseTranscriptText(text);

  it("is detected as its own format", () => {
    expect(explainFormat(JSON.parse(text))).toMatchObject({ format: vendor });
  });

  it("renders the original request again, nothing skipped or adjusted", () => {
    const rendered = renderHistory(trace.events, trace.events.length, vendor, trace.declarations, {
      sourceFormat: vendor,
    });
    expect(rendered.skipped).toEqual([]);
    expect(rendered.adjustments).toEqual([]);
    expect(rendered.pendingCallIds).toEqual([]);
    expect(JSON.parse(stringifyRequest(rendered.request))).toEqual(request);
  });
});
