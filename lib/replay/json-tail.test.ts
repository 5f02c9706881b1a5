// jsonTail ends exactly as the whole pretty JSON, starts at a line start, and holds at least what was asked.
import { describe, expect, it } from "vitest";
import { parseJsonLossless } from "../formats/lossless-json";
import { jsonTail } from "./json-tail";
import { renderHistory, stringifyRequest } from "./render-history";

const values: Record<string, unknown> = {
  nested: {
    system: "Be brief.\nReally.",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "a\u2028b" },
          { type: "image", source: {} },
        ],
      },
      { role: "assistant", content: [] },
    ],
    tools: [{ name: "x", input_schema: { type: "object", properties: {} } }],
    gone: undefined,
  },
  digits: parseJsonLossless(
    '{"big": 12345678901234567890123, "list": [1, 2.5, null, true, "s"], "deep": [[[{"k": [{}]}]]]}',
  ),
  primitive: "just a string",
  empty: [],
  history: renderHistory(
    Array.from({ length: 300 }, (_, i) => ({
      kind: "tool_call" as const,
      callId: `c${i}`,
      name: "t",
      input: "json" as const,
      argumentsText: `{"i": ${i}, "s": "${"x".repeat(i)}"}`,
      syntheticId: false,
      step: i,
      raw: null,
      path: `p${i}`,
    })),
    300,
    "anthropic",
  ).request,
};

describe("jsonTail", () => {
  it.each(Object.keys(values))("ends as stringifyRequest(value, 2) does (%s)", (name) => {
    const value = values[name];
    const full = stringifyRequest(value, 2);
    for (const need of [0, 1, 10, 57, 200, 1000, 5000, full.length - 1, full.length, full.length + 10]) {
      const tail = jsonTail(value, need);
      if (tail.complete) {
        expect(tail.text).toBe(full);
        continue;
      }
      expect(full.endsWith(tail.text)).toBe(true);
      expect(tail.text.length).toBeGreaterThanOrEqual(Math.min(need, full.length));
      expect(full[full.length - tail.text.length - 1]).toBe("\n");
    }
  });
});
