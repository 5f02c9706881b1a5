// What issue 11 observed, as tests: reused ids, snake_case thought signatures, non-text content in every encoding,
// numbers beyond 2^53, strict tools, error flags without a field, and histories that start with a model turn.
import { describe, expect, it } from "vitest";
import type { CanonicalTrace, ContentBlock } from "../formats/canonical";
import { parseTranscriptText, readJsonOrJsonl } from "../formats/detect";
import { loadFixtureText } from "../formats/fixtures/load-fixture";
import { isRecord } from "../formats/json-fields";
import { parseMcp } from "../formats/mcp";
import { anthropicRequest, chatRequest, geminiRequest, PDF, PNG, responsesRequest } from "./fixtures/vendor-requests";
import { textToBase64 } from "./content-reference";
import { PLACEHOLDER_USER_TEXT } from "./history";
import { renderHistory, stringifyRequest, type ReplayVendor } from "./render-history";

const VENDORS: ReplayVendor[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];
const traces: Record<string, CanonicalTrace> = {
  anthropic: parseTranscriptText(JSON.stringify(anthropicRequest)),
  chat: parseTranscriptText(JSON.stringify(chatRequest)),
  responses: parseTranscriptText(JSON.stringify(responsesRequest)),
  gemini: parseTranscriptText(JSON.stringify(geminiRequest)),
  mcp: parseMcp(readJsonOrJsonl(loadFixtureText("mcp-session.jsonl"))),
};

function last(trace: CanonicalTrace, vendor: ReplayVendor) {
  return renderHistory(trace.events, trace.events.length, vendor, trace.declarations, { sourceFormat: trace.format });
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

// What must be findable in the request for a block: its bytes, or (in a text reference) their sha256; its URI.
function essence(block: ContentBlock): string[] {
  switch (block.type) {
    case "image":
    case "audio":
      return [block.data];
    case "document":
      // A text document may travel as base64 inline data (Gemini).
      return [block.data ?? (block.text === undefined ? "" : block.text)];
    case "media_ref":
      return [block.url ?? block.fileId ?? ""];
    case "resource_link":
      return [block.uri];
    case "resource":
      return [block.resource.uri];
    case "text":
      return [];
    case "unknown":
      return [];
  }
}

describe("every content kind survives or is reported", () => {
  for (const [name, trace] of Object.entries(traces)) {
    for (const vendor of VENDORS) {
      it(`${name} → ${vendor}: each non-text part is in the request natively, or as a reference listed in skipped`, () => {
        const rendered = last(trace, vendor);
        const json = stringifyRequest(rendered.request);
        trace.events.forEach((event, index) => {
          const blocks = event.kind === "message" || event.kind === "tool_result" ? (event.content ?? []) : [];
          blocks.forEach((block, part) => {
            if (block.type === "text" || (event.kind === "message" && event.role === "system")) return;
            const skipped = rendered.skipped.some(
              (entry) => entry.index === index && (entry.part === part || entry.part === undefined),
            );
            for (const datum of essence(block)) {
              // Inline bytes in a reference show as their sha256, not their base64.
              const present =
                json.includes(datum) ||
                json.includes(textToBase64(datum)) ||
                (skipped && /sha256:[0-9a-f]{64}/.test(json));
              expect({ event: index, part, block: block.type, present }).toEqual({
                event: index,
                part,
                block: block.type,
                present: true,
              });
            }
            // Not there as itself: it went as a text reference, which skipped must list.
            if (essence(block).some((datum) => !json.includes(datum) && !json.includes(textToBase64(datum)))) {
              expect({ event: index, part, listedInSkipped: skipped }).toEqual({
                event: index,
                part,
                listedInSkipped: true,
              });
            }
          });
        });
      });
    }
  }

  it("an Anthropic document tool_result is not an empty result anywhere", () => {
    const anthropic = traces.anthropic as CanonicalTrace;
    expect(stringifyRequest(last(anthropic, "openai-responses").request)).toContain(
      `data:application/pdf;base64,${PDF}`,
    );
    expect(stringifyRequest(last(anthropic, "gemini").request)).toContain(PDF);
    const chat = last(anthropic, "openai-chat");
    expect(stringifyRequest(chat.request)).toContain("[document · application/pdf · report-7.pdf · inline ·");
    expect(chat.skipped).toContainEqual(
      expect.objectContaining({
        part: 2,
        reason: expect.stringContaining("only text parts are allowed in a Chat Completions tool message"),
      }),
    );
  });

  it("a Responses input_image output survives Responses → Responses and images cross vendors", () => {
    const responses = traces.responses as CanonicalTrace;
    const output = records(
      records(field(last(responses, "openai-responses").request, "input")).find(
        (item) => item.type === "function_call_output" && item.call_id === "call_site7",
      )?.output,
    );
    expect(output[1]).toEqual({
      type: "input_image",
      image_url: "https://example.com/site-7-crack.jpg",
      detail: "high",
    });
    const anthropic = stringifyRequest(last(traces.chat as CanonicalTrace, "anthropic").request);
    expect(anthropic).toContain(`"media_type":"image/png","data":"${PNG}"`);
  });
});

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

describe("ids as vendors really use them", () => {
  const chat = traces.chat as CanonicalTrace;

  it("keeps the second round of a reused Chat call id (call_0 in two turns)", () => {
    const messages = records(field(last(chat, "openai-chat").request, "messages"));
    expect(messages.filter((message) => message.role === "tool").map((message) => message.tool_call_id)).toEqual([
      "call_0",
      "call_1",
      "call_0",
    ]);
    expect(chat.issues).toEqual([]);
  });

  it("makes a reused id unique where the vendor pairs across the whole request, and says so", () => {
    const anthropic = last(chat, "anthropic");
    const uses = records(field(anthropic.request, "messages"))
      .flatMap((message) => records(message.content))
      .filter((block) => block.type === "tool_use" || block.type === "tool_result");
    expect(uses.map((block) => block.id ?? block.tool_use_id)).toEqual([
      "call_0",
      "call_1",
      "call_0",
      "call_1",
      "call_0_2",
      "call_0_2",
    ]);
    expect(anthropic.adjustments).toContainEqual({
      index: 7,
      change: expect.stringContaining("call id call_0 is used again by a later call: sent as call_0_2"),
    });
    const responses = records(field(last(chat, "openai-responses").request, "input"));
    expect(responses.filter((item) => typeof item.call_id === "string").map((item) => item.call_id)).toEqual([
      "call_0",
      "call_1",
      "call_0",
      "call_1",
      "call_0_2",
      "call_0_2",
    ]);
  });
});

describe("Gemini thought signatures", () => {
  it("are passed back from snake_case history too (normalised to camelCase)", () => {
    const snake = {
      contents: [
        { role: "user", parts: [{ text: "Weather?" }] },
        {
          role: "model",
          parts: [
            { function_call: { name: "get_weather", args: { city: "Lyon" } }, thought_signature: "c2lnLXNuYWtl" },
          ],
        },
        { role: "user", parts: [{ function_response: { name: "get_weather", response: { temp_c: 11 } } }] },
      ],
    };
    const trace = parseTranscriptText(JSON.stringify(snake));
    const contents = records(field(last(trace, "gemini").request, "contents"));
    expect(records(contents[1]?.parts)[0]).toEqual({
      functionCall: { name: "get_weather", args: { city: "Lyon" } },
      thoughtSignature: "c2lnLXNuYWtl",
    });
  });
});

describe("numbers keep their source digits", () => {
  const anthropicBody = `{"messages":[{"role":"user","content":"Fetch order"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_big","name":"get_order","input":{"order_id":12345678901234567890,"ratio":0.12345678901234567891}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_big","content":"{\\"order_id\\":12345678901234567890,\\"total\\":9007199254740993}"}]}],"system":"s"}`;
  const trace = parseTranscriptText(anthropicBody);

  it("in the arguments text of the call", () => {
    const call = trace.events.find((event) => event.kind === "tool_call");
    expect(call?.kind === "tool_call" ? call.argumentsText : "").toBe(
      '{"order_id":12345678901234567890,"ratio":0.12345678901234567891}',
    );
  });

  it.each(VENDORS)("in the %s replay", (vendor) => {
    const json = stringifyRequest(last(trace, vendor).request);
    expect(json).toContain("12345678901234567890");
    expect(json).toContain("0.12345678901234567891");
    if (vendor === "gemini") expect(json).toContain('"total":9007199254740993');
    // JSON.stringify still writes a valid (rounded) number rather than an object.
    expect(JSON.stringify(last(trace, vendor).request)).not.toContain("isLosslessNumber");
  });
});

describe("tools and error flags", () => {
  it("Responses function tools always carry strict, from the source where it had one", () => {
    for (const source of [traces.chat, traces.anthropic, traces.responses]) {
      if (source === undefined) continue;
      const tools = records(field(last(source, "openai-responses").request, "tools"));
      expect(tools.every((tool) => "strict" in tool)).toBe(true);
    }
    const fromChat = records(field(last(traces.chat as CanonicalTrace, "openai-responses").request, "tools"));
    expect(fromChat.map((tool) => [tool.name, tool.strict])).toEqual([
      ["inspect_site", null],
      ["get_weather", true],
    ]);
  });

  it("is_error is spelled into the text for Chat and Responses, and reported", () => {
    const anthropic = traces.anthropic as CanonicalTrace;
    const chat = last(anthropic, "openai-chat");
    expect(
      records(field(chat.request, "messages")).find((message) => message.tool_call_id === "toolu_01Weather")?.content,
    ).toBe("Error: weather service down");
    expect(chat.adjustments).toContainEqual({
      index: expect.any(Number),
      change: 'is_error has no Chat Completions field: the result is sent with "Error:" in front',
    });
    const responses = last(anthropic, "openai-responses");
    expect(
      records(field(responses.request, "input")).find(
        (item) => item.type === "function_call_output" && item.call_id === "toolu_01Weather",
      )?.output,
    ).toBe("Error: weather service down");
  });
});

describe("sendable replays", () => {
  it.each(["anthropic", "gemini"] as const)(
    "an MCP log replayed into %s starts with a placeholder user turn, reported",
    (vendor) => {
      const mcp = traces.mcp as CanonicalTrace;
      const rendered = last(mcp, vendor);
      const turns = records(field(rendered.request, vendor === "gemini" ? "contents" : "messages"));
      expect(turns[0]?.role).toBe("user");
      expect(stringifyRequest(turns[0])).toContain(PLACEHOLDER_USER_TEXT);
      expect(turns[1]?.role).toBe(vendor === "gemini" ? "model" : "assistant");
      expect(rendered.adjustments[0]).toMatchObject({
        index: null,
        change: expect.stringContaining("placeholder user turn"),
      });
    },
  );

  it("Chat and Responses take a model turn first as it is", () => {
    const mcp = traces.mcp as CanonicalTrace;
    expect(last(mcp, "openai-chat").adjustments.some((adjustment) => adjustment.index === null)).toBe(false);
  });
});
