// Tests for envelope detection and judgement, using the envelope seed's own examples.
import { afterEach, describe, expect, it } from "vitest";

import {
  analyzeEnvelopeValue,
  confidenceBand,
  detectEnvelope,
  envelopeSignalsError,
  wrongValueProblem,
} from "./envelope";

// seeds/tool-result-envelope.zh.txt — "统一外壳" (the first, minimal example).
const SEED_MINIMAL = `{
"success": true,
"data": {},
"confidence": 0.86,
"source": "knowledge_base",
"nextAction": "continue",
"error": null
}`;

// seeds/tool-result-envelope.zh.txt §1 — a search that ran but found only weak results.
const SEED_WEAK_SEARCH = `{
"success": true,
"data": { "items": [] },
"confidence": 0.32,
"source": [],
"nextAction": "ask_user",
"error": null,
"meta": {
"toolName": "searchDocs",
"toolVersion": "2026-05-06",
"traceId": "tool_001",
"durationMs": 183,
"cached": false
}
}`;

// seeds/tool-result-envelope.zh.txt §5 — the adapter's catch branch, serialised.
const SEED_TIMEOUT = JSON.stringify({
  success: false,
  data: null,
  confidence: 0,
  source: [],
  nextAction: "retry",
  error: {
    type: "timeout",
    message: "Error: connect ETIMEDOUT 10.0.0.5:443",
    retryable: true,
    userMessage: "资料查询暂时超时,可以稍后重试。",
  },
  meta: { toolName: "searchDocs", toolVersion: "2026-05-06", traceId: "trace_42", durationMs: 30012, cached: false },
});

const SEED_SOURCES = [
  { type: "document", id: "doc_website_brief_rule_v4", label: "官网 brief 填写规则", url: "/docs/brief-rule-v4" },
  { type: "user_input", id: "message_784", label: "用户原始需求" },
];

function validEnvelope(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...JSON.parse(SEED_WEAK_SEARCH), source: SEED_SOURCES, ...overrides });
}

describe("detectEnvelope", () => {
  it("reads the seed's weak-search example as a valid envelope and keeps every field", () => {
    const analysis = detectEnvelope(SEED_WEAK_SEARCH);
    expect(analysis).toEqual({
      kind: "valid",
      problems: [],
      envelope: {
        success: true,
        data: { items: [] },
        confidence: 0.32,
        source: [],
        nextAction: "ask_user",
        error: null,
        meta: {
          toolName: "searchDocs",
          toolVersion: "2026-05-06",
          traceId: "tool_001",
          durationMs: 183,
          cached: false,
        },
      },
    });
  });

  it("reads the seed's adapter failure as valid and as an error signal", () => {
    const analysis = detectEnvelope(SEED_TIMEOUT);
    expect(analysis.kind).toBe("valid");
    expect(envelopeSignalsError(analysis)).toBe(true);
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(analysis.envelope.error).toEqual({
      type: "timeout",
      message: "Error: connect ETIMEDOUT 10.0.0.5:443",
      retryable: true,
      userMessage: "资料查询暂时超时,可以稍后重试。",
    });
  });

  it("keeps the seed's bare-string source but calls the envelope partial", () => {
    const analysis = detectEnvelope(SEED_MINIMAL);
    expect(analysis.kind).toBe("partial");
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(analysis.envelope.source).toBe("knowledge_base");
    expect(analysis.envelope.confidence).toBe(0.86);
    expect(analysis.problems).toEqual([
      'source: a bare string ("knowledge_base") cannot be traced back; expected an array of {type, id}',
      "meta: missing",
    ]);
  });

  it("reads the seed's single source object (§3) as a one-element list, flagged partial", () => {
    const text = validEnvelope({
      source: { type: "document", id: "pricing-rules-2026", section: "售后修改范围" },
      traceId: "tool_abc_123",
    });
    const analysis = detectEnvelope(text);
    expect(analysis.kind).toBe("partial");
    if (analysis.kind === "none") throw new Error("expected an envelope");
    // The seed's extra `section` is kept; its top-level traceId is read into meta.traceId, and said where it belongs.
    expect(analysis.envelope.source).toEqual([
      { type: "document", id: "pricing-rules-2026", extra: { section: "售后修改范围" } },
    ]);
    expect(analysis.envelope.meta?.traceId).toBe("tool_001");
    expect(analysis.problems).toEqual([
      "source: expected an array of sources; a single source object was read as one",
      "traceId: belongs in meta.traceId (read from the top level)",
    ]);
  });

  it("accepts the seed's full source list", () => {
    const analysis = detectEnvelope(validEnvelope());
    expect(analysis.kind).toBe("valid");
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(analysis.envelope.source).toEqual(SEED_SOURCES);
  });

  it("calls wrong values invalid, with the field path, and keeps what it could read", () => {
    const analysis = detectEnvelope(validEnvelope({ confidence: 1.7, nextAction: "explode" }));
    expect(analysis.kind).toBe("invalid");
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(analysis.problems).toEqual([
      "confidence: must be between 0 and 1 (got 1.7)",
      'nextAction: must be one of continue|retry|ask_user|human_review|stop (got "explode")',
    ]);
    expect(analysis.envelope.confidence).toBe(1.7);
    expect(analysis.envelope.nextAction).toBeUndefined();
    expect(analysis.envelope.meta?.toolName).toBe("searchDocs");
  });

  it("reports nested problems by path and prefers invalid over partial", () => {
    const analysis = detectEnvelope(
      JSON.stringify({
        success: false,
        confidence: "0.9",
        source: [{ type: "website", id: 7 }, "doc-1", { id: "x" }],
        error: { type: "external_timeout", message: "upstream timed out" },
        meta: { toolName: "fetch", durationMs: -5, cached: "no" },
      }),
    );
    expect(analysis.kind).toBe("invalid");
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(analysis.problems).toEqual([
      "data: missing (use null when there is no data)",
      'confidence: must be a number between 0 and 1 (got "0.9")',
      'source[0].type: must be one of document|file|api|database|user_input (got "website")',
      "source[0].id: must be a string (got 7)",
      'source[1]: must be an object {type, id} (got "doc-1")',
      "source[2].type: missing",
      "nextAction: missing",
      // The seed's own failure story (§6) uses this value, outside the seed's enum.
      'error.type: must be one of validation_error|permission_denied|timeout|rate_limited|not_found|state_conflict|unknown (got "external_timeout")',
      "error.retryable: missing",
      "meta.toolVersion: missing",
      "meta.traceId: missing",
      "meta.durationMs: must be a non-negative number (got -5)",
      'meta.cached: must be a boolean (got "no")',
    ]);
    // The out-of-list type is kept for people to read; the problem above still calls it invalid.
    expect(analysis.envelope.error).toEqual({ type: "external_timeout", message: "upstream timed out" });
    expect(analysis.envelope.source).toEqual([{}, { id: "x" }]);
  });

  it("calls a home-grown {success, data} reply a partial envelope", () => {
    const analysis = detectEnvelope('{"success": true, "data": {"id": 42}}');
    expect(analysis.kind).toBe("partial");
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(analysis.problems).toEqual([
      "confidence: missing",
      "source: missing",
      "nextAction: missing",
      "error: missing (use null when there is no error)",
      "meta: missing",
    ]);
  });

  it("reads a string error as its message and flags it", () => {
    const analysis = detectEnvelope('{"success": false, "error": "not found"}');
    expect(analysis.kind).toBe("invalid");
    expect(envelopeSignalsError(analysis)).toBe(true);
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(analysis.envelope.error).toEqual({ message: "not found" });
  });

  it("flags contradictions between success and error", () => {
    const contradicting = detectEnvelope(validEnvelope({ error: { type: "unknown", message: "x", retryable: false } }));
    expect(contradicting.kind).toBe("invalid");
    if (contradicting.kind === "none") throw new Error("expected an envelope");
    expect(contradicting.problems).toEqual(["error: must be null when success is true"]);

    const silentFailure = detectEnvelope(validEnvelope({ success: false }));
    expect(silentFailure.kind).toBe("partial");
    if (silentFailure.kind === "none") throw new Error("expected an envelope");
    expect(silentFailure.problems).toEqual(["error: should describe the failure when success is false"]);
  });

  it.each([
    ["plain text", "Deployment completed successfully. Instance i-0abc123 is running."],
    ["the seed's structured result", '{"instances": [{"id": "i-0abc123", "state": "running"}], "count": 1}'],
    ["a JSON array", '[{"success": true, "confidence": 1}]'],
    ["one envelope key", '{"success": true}'],
    ["no anchor key", '{"data": {"a": 1}, "meta": {}, "error": null}'],
    ["broken JSON", '{"success": true, "confidence": '],
    ["an empty string", ""],
    ["JSON null", "null"],
    ["deep nesting", `{"success":${"[".repeat(200_000)}`],
  ])("returns none for %s", (_name, text) => {
    expect(detectEnvelope(text)).toEqual({ kind: "none" });
  });

  it("tolerates a leading BOM and whitespace", () => {
    expect(detectEnvelope(`\uFEFF\n  ${SEED_WEAK_SEARCH}`).kind).toBe("valid");
  });

  it("never lets a __proto__ key change a prototype or count as a field", () => {
    const text = `{
      "__proto__": {"success": true, "polluted": "yes"},
      "confidence": 0.9,
      "nextAction": "continue",
      "meta": {"__proto__": {"toolName": "evil"}, "toolVersion": "1", "traceId": "t", "durationMs": 1, "cached": false}
    }`;
    const analysis = detectEnvelope(text);
    expect(analysis.kind).toBe("partial");
    if (analysis.kind === "none") throw new Error("expected an envelope");
    expect(Object.getPrototypeOf(analysis.envelope)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(analysis.envelope.meta)).toBe(Object.prototype);
    expect(analysis.envelope.success).toBeUndefined();
    expect(analysis.envelope.meta?.toolName).toBeUndefined();
    expect(analysis.problems).toContain("success: missing");
    expect(analysis.problems).toContain("meta.toolName: missing");
    expect(Reflect.get({}, "polluted")).toBeUndefined();
    expect(Reflect.get({}, "toolName")).toBeUndefined();
  });

  describe("with a polluted Object.prototype", () => {
    afterEach(() => {
      Reflect.deleteProperty(Object.prototype, "success");
    });

    it("reads own properties only", () => {
      Object.defineProperty(Object.prototype, "success", { value: true, configurable: true });
      const analysis = analyzeEnvelopeValue(JSON.parse('{"confidence": 0.9, "data": null}'));
      if (analysis.kind === "none") throw new Error("expected an envelope");
      expect(analysis.problems).toContain("success: missing");
      expect(Object.hasOwn(analysis.envelope, "success")).toBe(false);
    });
  });
});

describe("confidenceBand", () => {
  // Each band includes its lower bound: ≥ 0.8 high, [0.5, 0.8) medium, < 0.5 low.
  it.each([
    [1, "high"],
    [0.8, "high"],
    [0.7999, "medium"],
    [0.5, "medium"],
    [0.4999, "low"],
    [0, "low"],
    [Number.NaN, "low"],
  ])("puts %s in the %s band", (confidence, band) => {
    expect(confidenceBand(confidence).band).toBe(band);
  });

  it("suggests the seed's action for each band", () => {
    expect(confidenceBand(0.86).suggestion).toMatch(/continue/);
    expect(confidenceBand(0.6).suggestion).toMatch(/uncertain/);
    expect(confidenceBand(0.32).suggestion).toMatch(/human/);
  });
});

describe("wrongValueProblem", () => {
  it("tells a field sent with a wrong value from one left out, so the page never calls a sent value missing", () => {
    const detected = detectEnvelope(
      JSON.stringify({ success: "yes", confidence: 0.4, nextAction: "explode", data: null, error: null, meta: {} }),
    );
    if (detected.kind === "none") throw new Error("expected an envelope");
    expect(detected.kind).toBe("invalid");
    expect(wrongValueProblem(detected.problems, "success")).toMatch(/boolean.*"yes"/);
    expect(wrongValueProblem(detected.problems, "nextAction")).toMatch(/"explode"/);
    expect(wrongValueProblem(detected.problems, "confidence")).toBeNull();
    expect(wrongValueProblem(["meta: missing", "data: missing (use null when there is no data)"], "meta")).toBeNull();
    expect(wrongValueProblem(["data: missing (use null when there is no data)"], "data")).toBeNull();
    expect(wrongValueProblem(["successor: must be a string"], "success")).toBeNull();
  });
});
