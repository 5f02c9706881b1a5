// Every example of the envelope seed (seeds/tool-result-envelope.zh.txt), verbatim, read as the seed describes it.
import { describe, expect, it } from "vitest";
import { analyzeResult } from "./analyze";
import { confidenceBand, detectEnvelope, envelopeSignalsError } from "./envelope";

// "先给结论：每个工具结果都要有统一外壳" — the minimal shell: its bare-string source is what the seed later says not to do.
const SHELL = `{
"success": true,
"data": {},
"confidence": 0.86,
"source": "knowledge_base",
"nextAction": "continue",
"error": null
}`;

// §1 — the search ran but found only weak results: not a failure, but not enough to continue.
const WEAK_SEARCH = `{
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

// §3 — source and traceId make a result traceable (a fragment; `section` is the seed's own extra field).
const TRACED_SOURCE = `{
"source": {
"type": "document",
"id": "pricing-rules-2026",
"section": "售后修改范围"
},
"traceId": "tool_abc_123"
}`;

// §3 — a source list that lets a person find the original basis.
const SOURCE_LIST = [
  { type: "document", id: "doc_website_brief_rule_v4", label: "官网 brief 填写规则", url: "/docs/brief-rule-v4" },
  { type: "user_input", id: "message_784", label: "用户原始需求" },
];

// §5 — the adapter's two branches, as they serialise.
const ADAPTER_SUCCESS = {
  success: true,
  data: { items: [{ id: "doc_1", title: "退款规则" }] },
  confidence: 0.9,
  source: [{ type: "document", id: "doc_1", label: "退款规则" }],
  nextAction: "continue",
  error: null,
  meta: { toolName: "searchDocs", toolVersion: "2026-05-06", traceId: "trace_9", durationMs: 41, cached: false },
};
const ADAPTER_FAILURE = {
  success: false,
  data: null,
  confidence: 0,
  source: [],
  nextAction: "retry",
  error: {
    type: "timeout",
    message: "Error: socket hang up",
    retryable: true,
    userMessage: "资料查询暂时超时,可以稍后重试。",
  },
  meta: { toolName: "searchDocs", toolVersion: "2026-05-06", traceId: "trace_9", durationMs: 30001, cached: false },
};

// §6 — the failure story: an error written into data, then the fix.
const BROKEN = `{ "data": "timeout" }`;
const FIXED = {
  success: false,
  data: null,
  confidence: 0,
  source: [],
  nextAction: "retry",
  error: { type: "external_timeout", message: "timeout", retryable: true },
};

describe("the envelope seed's examples", () => {
  it("the minimal shell: an envelope, partial because its source is a bare string and meta is missing", () => {
    const analysis = detectEnvelope(SHELL);
    expect(analysis).toMatchObject({
      kind: "partial",
      envelope: { success: true, confidence: 0.86, source: "knowledge_base", nextAction: "continue", error: null },
    });
    expect(confidenceBand(0.86).band).toBe("high");
  });

  it("§1: the call ran (success, no error signal) but low confidence asks the user", () => {
    const analysis = detectEnvelope(WEAK_SEARCH);
    expect(analysis.kind).toBe("valid");
    expect(envelopeSignalsError(analysis)).toBe(false);
    expect(analysis.kind === "valid" ? analysis.envelope.nextAction : null).toBe("ask_user");
    expect(confidenceBand(0.32).band).toBe("low");
  });

  it("§3: the traced-source fragment is read whole: the source with its section, the trace id", () => {
    const analysis = detectEnvelope(TRACED_SOURCE);
    expect(analysis).toMatchObject({
      kind: "partial",
      envelope: {
        source: [{ type: "document", id: "pricing-rules-2026", extra: { section: "售后修改范围" } }],
        meta: { traceId: "tool_abc_123" },
      },
    });
  });

  it("§3: the source list is kept entry by entry", () => {
    const analysis = detectEnvelope(JSON.stringify({ ...ADAPTER_SUCCESS, source: SOURCE_LIST }));
    expect(analysis).toMatchObject({ kind: "valid", envelope: { source: SOURCE_LIST } });
  });

  it("§5: both adapter branches are valid envelopes; only the catch branch signals an error", () => {
    expect(detectEnvelope(JSON.stringify(ADAPTER_SUCCESS))).toMatchObject({ kind: "valid", problems: [] });
    const failure = detectEnvelope(JSON.stringify(ADAPTER_FAILURE));
    expect(failure).toMatchObject({ kind: "valid", envelope: { error: { type: "timeout", retryable: true } } });
    expect(envelopeSignalsError(failure)).toBe(true);
  });

  it("§6: an error written into data is no envelope and signals nothing — the failure the seed describes", () => {
    expect(detectEnvelope(BROKEN)).toEqual({ kind: "none" });
    expect(analyzeResult({ text: BROKEN }).isError).toBe(false);
  });

  it("§6: the fix is read as a failure to retry, its out-of-list error type kept and reported", () => {
    const analysis = detectEnvelope(JSON.stringify(FIXED));
    expect(analysis).toMatchObject({
      kind: "invalid",
      envelope: { success: false, nextAction: "retry", error: { type: "external_timeout", retryable: true } },
    });
    expect(envelopeSignalsError(analysis)).toBe(true);
    expect(analyzeResult({ text: JSON.stringify(FIXED) })).toMatchObject({ isError: true, errorSource: "envelope" });
  });
});
