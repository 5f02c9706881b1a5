// Replay tests: vendor pairing rules on every cut of every fixture, plus exact requests for the cases that matter.
import { describe, expect, it } from "vitest";
import { parseAgentStream } from "../formats/agent-stream";
import { parseAnthropic } from "../formats/anthropic";
import type { CanonicalEvent, CanonicalTrace } from "../formats/canonical";
import { readJsonOrJsonl } from "../formats/detect";
import { loadFixture, loadFixtureText } from "../formats/fixtures/load-fixture";
import { parseGemini } from "../formats/gemini";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import { parseMcp } from "../formats/mcp";
import { parseOpenAIChat } from "../formats/openai-chat";
import { parseOpenAIResponses } from "../formats/openai-responses";
import { PLACEHOLDER_USER_TEXT } from "./history";
import { renderHistory, type ReplayVendor } from "./render-history";

const traces: Record<string, CanonicalTrace> = {
  anthropic: parseAnthropic(loadFixture("anthropic-parallel-weather.json")),
  chat: parseOpenAIChat(loadFixture("openai-chat-parallel.json")),
  responses: parseOpenAIResponses(loadFixture("openai-responses-input.json")),
  responsesPending: parseOpenAIResponses(loadFixture("openai-responses-response.json")),
  geminiNoIds: parseGemini(loadFixture("gemini-no-ids.json")),
  geminiIds: parseGemini(loadFixture("gemini-with-ids.json")),
  mcp: parseMcp(readJsonOrJsonl(loadFixtureText("mcp-session.jsonl"))),
  agentStream: parseAgentStream(readJsonOrJsonl(loadFixtureText("agent-stream-ailoy.jsonl"))),
};
const VENDORS: ReplayVendor[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];

function trace(name: string): CanonicalTrace {
  const found = traces[name];
  if (found === undefined) throw new Error(`no trace ${name}`);
  return found;
}

function records(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

// ---- Pairing checks: each returns the rule violations found in a rendered request (empty = valid). ----

function anthropicViolations(request: unknown, pending: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const messages = records(field(request, "messages"));
  const toolUseIds = (message: JsonRecord | undefined) =>
    records(message?.content)
      .filter((block) => block.type === "tool_use")
      .map((block) => String(block.id));
  messages.forEach((message, index) => {
    if (index > 0 && messages[index - 1]?.role === message.role)
      out.push(`messages[${index}] repeats role ${String(message.role)}`);
    const content = records(message.content);
    if (message.role === "assistant") {
      if (content.some((block) => block.type === "tool_result"))
        out.push(`messages[${index}] has a tool_result in an assistant message`);
      const answered = records(messages[index + 1]?.content)
        .filter((block) => block.type === "tool_result")
        .map((block) => String(block.tool_use_id));
      for (const id of toolUseIds(message)) {
        if (!answered.includes(id) && !pending.has(id))
          out.push(`tool_use ${id} has no tool_result in the next message`);
      }
      return;
    }
    let seenOther = false;
    for (const block of content) {
      if (block.type !== "tool_result") {
        seenOther = true;
        continue;
      }
      if (seenOther) out.push(`tool_result ${String(block.tool_use_id)} comes after other content`);
      if (!toolUseIds(messages[index - 1]).includes(String(block.tool_use_id))) {
        out.push(`tool_result ${String(block.tool_use_id)} answers no tool_use of the previous message`);
      }
    }
  });
  return out;
}

function chatViolations(request: unknown, pending: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const messages = records(field(request, "messages"));
  messages.forEach((message, index) => {
    if (message.role === "assistant" && Array.isArray(message.tool_calls)) {
      const ids = records(message.tool_calls).map((call) => String(call.id));
      const answered: string[] = [];
      for (let next = index + 1; messages[next]?.role === "tool"; next += 1)
        answered.push(String(messages[next]?.tool_call_id));
      for (const id of ids)
        if (!answered.includes(id) && !pending.has(id)) out.push(`tool call ${id} has no tool message right after it`);
      for (const id of answered)
        if (!ids.includes(id)) out.push(`tool message ${id} answers another assistant message`);
    }
    if (message.role === "tool") {
      let previous = index - 1;
      while (messages[previous]?.role === "tool") previous -= 1;
      const owner = messages[previous];
      const ids = records(owner?.tool_calls).map((call) => String(call.id));
      if (owner?.role !== "assistant" || !ids.includes(String(message.tool_call_id))) {
        out.push(`tool message ${String(message.tool_call_id)} does not follow its assistant tool_calls message`);
      }
    }
  });
  return out;
}

function responsesViolations(request: unknown, pending: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const calls = new Map<string, string>();
  const answered = new Set<string>();
  for (const item of records(field(request, "input"))) {
    if (item.type === "function_call" || item.type === "custom_tool_call") {
      const id = String(item.call_id);
      if (calls.has(id)) out.push(`duplicate call_id ${id}`);
      calls.set(id, String(item.type));
    }
    if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      const id = String(item.call_id);
      const callType = calls.get(id);
      if (callType === undefined) out.push(`output ${id} has no earlier call`);
      else if (`${callType}_output` !== item.type) out.push(`output ${id} is ${String(item.type)} for a ${callType}`);
      if (answered.has(id)) out.push(`second output for ${id}`);
      answered.add(id);
    }
  }
  for (const id of calls.keys()) if (!answered.has(id) && !pending.has(id)) out.push(`call ${id} has no output`);
  return out;
}

// Gemini pairs by id when the call has one, else by name and position; pendingNames counts unanswered id-less calls.
function geminiViolations(request: unknown, pending: ReadonlySet<string>, pendingNames: string[]): string[] {
  const out: string[] = [];
  const contents = records(field(request, "contents"));
  const callsOf = (content: JsonRecord | undefined) =>
    records(content?.parts).flatMap((part) => records([part.functionCall]));
  const responsesOf = (content: JsonRecord | undefined) =>
    records(content?.parts).flatMap((part) => records([part.functionResponse]));
  contents.forEach((content, index) => {
    const responses = responsesOf(content);
    if (responses.length === 0) return;
    const parts = records(content.parts);
    const firstOther = parts.findIndex((part) => part.functionResponse === undefined);
    if (firstOther !== -1 && parts.slice(firstOther).some((part) => part.functionResponse !== undefined)) {
      out.push(`contents[${index}] has functionResponse parts after other parts`);
    }
    const previous = contents[index - 1];
    if (content.role !== "user" || previous?.role !== "model")
      out.push(`contents[${index}] functionResponse not right after a model turn`);
    const calls = callsOf(previous);
    for (const response of responses) {
      const match =
        response.id === undefined
          ? calls.some((call) => call.id === undefined && call.name === response.name)
          : calls.some((call) => call.id === response.id && call.name === response.name);
      if (!match)
        out.push(`functionResponse ${String(response.id ?? response.name)} answers no call of the previous turn`);
    }
  });
  contents.forEach((content, index) => {
    const calls = callsOf(content);
    if (calls.length === 0) return;
    const responses = responsesOf(contents[index + 1]);
    const withoutId = new Map<string, number>();
    for (const call of calls) {
      if (call.id !== undefined) {
        if (!responses.some((response) => response.id === call.id) && !pending.has(String(call.id))) {
          out.push(`functionCall ${String(call.id)} has no functionResponse`);
        }
      } else {
        withoutId.set(String(call.name), (withoutId.get(String(call.name)) ?? 0) + 1);
      }
    }
    for (const [name, count] of withoutId) {
      const answered = responses.filter((response) => response.id === undefined && response.name === name).length;
      const waiting = pendingNames.filter((pendingName) => pendingName === name).length;
      if (answered + waiting < count) out.push(`functionCall ${name} has no functionResponse`);
    }
  });
  return out;
}

function violations(events: readonly CanonicalEvent[], step: number, vendor: ReplayVendor): string[] {
  const rendered = renderHistory(events, step, vendor);
  const pending = new Set(rendered.pendingCallIds.map((id) => rendered.renamedCallIds[id] ?? id));
  switch (vendor) {
    case "anthropic":
      return anthropicViolations(rendered.request, pending);
    case "openai-chat":
      return chatViolations(rendered.request, pending);
    case "openai-responses":
      return responsesViolations(rendered.request, pending);
    case "gemini": {
      const pendingNames = events
        .filter(
          (event) => event.kind === "tool_call" && event.syntheticId && rendered.pendingCallIds.includes(event.callId),
        )
        .map((event) => (event.kind === "tool_call" ? event.name : ""));
      return geminiViolations(rendered.request, pending, pendingNames);
    }
  }
}

describe("the pairing checks themselves", () => {
  it("catch results that answer nothing, come late, or come after other content", () => {
    const none = new Set<string>();
    expect(
      anthropicViolations(
        {
          messages: [
            {
              role: "assistant",
              content: [
                { type: "tool_use", id: "a" },
                { type: "tool_use", id: "b" },
              ],
            },
            {
              role: "user",
              content: [
                { type: "text", text: "x" },
                { type: "tool_result", tool_use_id: "a" },
                { type: "tool_result", tool_use_id: "z" },
              ],
            },
          ],
        },
        none,
      ),
    ).toEqual([
      "tool_use b has no tool_result in the next message",
      "tool_result a comes after other content",
      "tool_result z comes after other content",
      "tool_result z answers no tool_use of the previous message",
    ]);
    expect(
      chatViolations(
        {
          messages: [
            { role: "assistant", tool_calls: [{ id: "a" }, { id: "b" }] },
            { role: "tool", tool_call_id: "a" },
            { role: "user", content: "x" },
            { role: "tool", tool_call_id: "b" },
          ],
        },
        none,
      ),
    ).toEqual([
      "tool call b has no tool message right after it",
      "tool message b does not follow its assistant tool_calls message",
    ]);
    expect(
      responsesViolations(
        {
          input: [
            { type: "function_call_output", call_id: "a" },
            { type: "custom_tool_call", call_id: "b" },
            { type: "function_call_output", call_id: "b" },
          ],
        },
        none,
      ),
    ).toEqual(["output a has no earlier call", "output b is function_call_output for a custom_tool_call"]);
    expect(
      geminiViolations(
        {
          contents: [
            {
              role: "model",
              parts: [
                { functionCall: { name: "f" } },
                { functionCall: { name: "f" } },
                { functionCall: { id: "k", name: "g" } },
              ],
            },
            {
              role: "user",
              parts: [{ text: "x" }, { functionResponse: { name: "f" } }, { functionResponse: { id: "q", name: "g" } }],
            },
          ],
        },
        none,
        [],
      ),
    ).toEqual([
      "contents[1] has functionResponse parts after other parts",
      "functionResponse q answers no call of the previous turn",
      "functionCall k has no functionResponse",
      "functionCall f has no functionResponse",
    ]);
  });
});

describe("renderHistory pairing rules", () => {
  for (const [name, source] of Object.entries(traces)) {
    for (const vendor of VENDORS) {
      it(`${name} → ${vendor}: every cut pairs each result with a preceding call in the vendor's order`, () => {
        for (let step = 0; step <= source.events.length; step += 1) {
          expect({ step, violations: violations(source.events, step, vendor) }).toEqual({ step, violations: [] });
        }
      });
    }
  }

  it("lists the calls of the cut that have no result yet", () => {
    const { events } = trace("anthropic");
    expect(renderHistory(events, 6, "anthropic").pendingCallIds).toEqual([
      "toolu_01A09q90qw90lq917835lq9",
      "toolu_01B7pF3hXjq2vLkLmNo4RsTu",
    ]);
    expect(renderHistory(events, 9, "anthropic").pendingCallIds).toEqual([
      "toolu_01B7pF3hXjq2vLkLmNo4RsTu",
      "toolu_01CkT9wQz8RmYvE2sHd5FgJa",
      "toolu_01DmV6xNc3BqLr8tWy1ZpKeH",
    ]);
    expect(renderHistory(events, events.length, "anthropic").pendingCallIds).toEqual([]);
    expect(renderHistory(trace("responsesPending").events, 3, "openai-responses").pendingCallIds).toEqual([
      "call_8sD2fG6hJ0kL4zX8cV2bN6mQ",
      "call_3wE7rT1yU5iO9pA3sD7fG1hJ",
    ]);
    expect(renderHistory(trace("mcp").events, 17, "openai-chat").pendingCallIds).toEqual(["mcp-7"]);
  });

  it("defines the history at step N as the first N events", () => {
    const { events } = trace("chat");
    expect(renderHistory(events, 0, "openai-chat").request).toEqual({ messages: [] });
    expect(renderHistory(events, 2, "openai-chat").request).toEqual({
      messages: [
        { role: "system", content: "You are a travel assistant. Always use tools for live data." },
        {
          role: "user",
          content: [
            {
              type: "text",
              text: "Compare the weather in Paris and Tokyo, and find me a flight for the date on this ticket.",
            },
            {
              type: "image_url",
              // The source part's detail comes back: the block kept it as a Chat extra.
              image_url: {
                detail: "low",
                url: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
              },
            },
          ],
        },
      ],
    });
    expect(renderHistory(events, 1000, "openai-chat")).toEqual(renderHistory(events, events.length, "openai-chat"));
    expect(() => renderHistory(events, -1, "openai-chat")).toThrow(RangeError);
    expect(() => renderHistory(events, 1.5, "openai-chat")).toThrow(RangeError);
  });
});

describe("renderHistory → anthropic", () => {
  it("puts the parallel batch's results, error flag and image content first in the next user message", () => {
    const { events } = trace("anthropic");
    const rendered = renderHistory(events, events.length, "anthropic");
    const messages = records(field(rendered.request, "messages"));
    expect(messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(field(rendered.request, "system")).toEqual([
      { type: "text", text: "You are a travel assistant. Use the tools for live data." },
    ]);
    expect(messages[2]?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_01A09q90qw90lq917835lq9",
        content: '{"temp_c":18,"conditions":"cloudy"}',
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_01B7pF3hXjq2vLkLmNo4RsTu",
        content: '{"temp_c":24,"conditions":"sunny"}',
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_01CkT9wQz8RmYvE2sHd5FgJa",
        content: 'Error: unknown time zone "Asia/Tokio". Did you mean "Asia/Tokyo"?',
        is_error: true,
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_01DmV6xNc3BqLr8tWy1ZpKeH",
        content: [
          { type: "text", text: "Map of Tokyo, 512x512" },
          {
            type: "image",
            source: {
              type: "base64",
              media_type: "image/png",
              data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
            },
          },
        ],
      },
    ]);
    // Signed thinking goes back verbatim; the orphan result is left out and said so.
    expect(records(messages[1]?.content)[0]).toMatchObject({
      type: "thinking",
      signature: expect.stringMatching(/^EqQB/),
    });
    expect(records(messages[3]?.content)[0]).toMatchObject({ type: "redacted_thinking" });
    expect(messages[4]?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_01EqR4sTb7NwXc2VyHj9LmPd", content: "2025-06-12T09:41:00+09:00" },
      { type: "text", text: "Thanks! Should I pack an umbrella?" },
    ]);
    expect(rendered.skipped).toEqual([{ index: 16, reason: "result for unknown call toolu_01ZzStaleResult4kQ8wP2mN" }]);
  });

  it("wraps invalid JSON arguments, drops unsigned reasoning and renders declarations as tools", () => {
    const chat = trace("chat");
    const rendered = renderHistory(chat.events, chat.events.length, "anthropic", chat.declarations);
    const messages = records(field(rendered.request, "messages"));
    expect(messages[0]?.role).toBe("user");
    expect(field(rendered.request, "system")).toEqual([
      { type: "text", text: "You are a travel assistant. Always use tools for live data." },
    ]);
    expect(records(messages[1]?.content)[2]).toEqual({
      type: "tool_use",
      id: "call_Q3pUe7RmJx5Vc1AoWs9KgH4n",
      name: "search_flights",
      input: { input: '{"from":"CDG","to":"HND","date":"2025-06-13' },
    });
    expect(field(rendered.request, "tools")).toEqual([
      {
        name: "get_weather",
        description: "Get the current weather for a city.",
        input_schema: {
          type: "object",
          properties: { location: { type: "string" } },
          required: ["location"],
          additionalProperties: false,
        },
      },
      {
        name: "search_flights",
        description: "Search direct flights between two airports on a date.",
        input_schema: {
          type: "object",
          properties: { from: { type: "string" }, to: { type: "string" }, date: { type: "string", format: "date" } },
          required: ["from", "to", "date"],
        },
      },
    ]);
    const stream = trace("agentStream");
    expect(renderHistory(stream.events, 1, "anthropic").skipped).toEqual([
      { index: 0, reason: "reasoning without an Anthropic signature cannot be replayed" },
    ]);
  });

  it("renames ids Anthropic's pattern rejects and reports the mapping", () => {
    const { events } = trace("geminiNoIds");
    const rendered = renderHistory(events, events.length, "anthropic");
    expect(rendered.renamedCallIds).toEqual({
      "get_weather#0": "get_weather_0",
      "get_weather#1": "get_weather_1",
      "get_local_time#2": "get_local_time_2",
    });
    const messages = records(field(rendered.request, "messages"));
    expect(records(messages[2]?.content).map((block) => [block.tool_use_id, block.is_error ?? false])).toEqual([
      ["get_local_time_2", true],
      ["get_weather_0", false],
      ["get_weather_1", false],
    ]);
  });

  it("moves a late result up to the message right after its call", () => {
    const events: CanonicalEvent[] = [
      {
        kind: "tool_call",
        step: 0,
        callId: "toolu_01X",
        syntheticId: false,
        name: "lookup",
        input: "json",
        argumentsText: "{}",
        arguments: {},
        raw: null,
        path: "a",
      },
      { kind: "message", step: 1, role: "user", text: "still there?", raw: null, path: "b" },
      { kind: "message", step: 1, role: "assistant", text: "waiting on the tool", raw: null, path: "c" },
      { kind: "tool_result", step: 2, callId: "toolu_01X", text: "found", isError: false, raw: null, path: "d" },
    ];
    const anthropic = renderHistory(events, 4, "anthropic");
    expect(anthropic.request).toEqual({
      messages: [
        // Anthropic rejects a history that starts with an assistant turn: a placeholder user turn goes first.
        { role: "user", content: [{ type: "text", text: PLACEHOLDER_USER_TEXT }] },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01X", name: "lookup", input: {} }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_01X", content: "found" },
            { type: "text", text: "still there?" },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "waiting on the tool" }] },
      ],
    });
    // The result was recorded after the user's text: sending it first is a change, and it is listed.
    expect(anthropic.adjustments).toEqual([
      {
        index: 3,
        change: expect.stringMatching(/tool_result for toolu_01X was recorded after other content.*sent first/),
      },
      { index: null, change: expect.stringContaining("placeholder user turn") },
    ]);
    expect(field(renderHistory(events, 4, "openai-chat").request, "messages")).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "toolu_01X", type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "toolu_01X", content: "found" },
      { role: "user", content: "still there?" },
      { role: "assistant", content: "waiting on the tool" },
    ]);
  });
});

describe("renderHistory → openai-chat", () => {
  it("renders tool messages right after their assistant message and turns protocol errors into error results", () => {
    const { events } = trace("mcp");
    const rendered = renderHistory(events, events.length, "openai-chat");
    expect(field(rendered.request, "messages")).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "mcp-2", type: "function", function: { name: "get_weather_data", arguments: '{"location":"Paris"}' } },
        ],
      },
      {
        role: "tool",
        tool_call_id: "mcp-2",
        content: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}',
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "mcp-3",
            type: "function",
            function: { name: "render_radar", arguments: '{"region":"Île-de-France"}' },
          },
          { id: "mcp-4", type: "function", function: { name: "read_station_log", arguments: '{"station":"LFPG"}' } },
          {
            id: "mcp-5",
            type: "function",
            function: { name: "get_weather_data", arguments: '{"location":"Atlantis"}' },
          },
        ],
      },
      // Chat tool messages take text only: links, resources, images and audio go as text references.
      {
        role: "tool",
        tool_call_id: "mcp-4",
        content: [
          {
            type: "text",
            text: "[resource_link · file:///var/log/stations/LFPG.log · LFPG.log · text/plain · Raw station log]",
          },
          {
            type: "text",
            text: "[resource · file:///var/log/stations/LFPG-summary.txt · LFPG summary · text/plain · 40 bytes · sha256:dd5d9a1b2407e425af508754a4e6faab9bfed82e4e0e3e1713b983679da8aabe]\nLFPG 12Z: wind 240/12kt, visibility 10km",
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: "mcp-3",
        content: [
          { type: "text", text: "Radar for Île-de-France" },
          {
            type: "text",
            text: "[image · image/png · inline · 70 bytes · sha256:6b7fa434f92a8b80aab02d9bf1a12e49ffcae424e4013a1c4f68b67e3d2bbcd0]",
          },
          {
            type: "text",
            text: "[audio · audio/wav · inline · 44 bytes · sha256:5b517b506f635e251ee0d7020062f1ce375cc3a92f1f445e71be6995f4a591f1]",
          },
        ],
      },
      // isError has no Chat field: the text says it.
      { role: "tool", tool_call_id: "mcp-5", content: "Error: Location not found: Atlantis" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "mcp-6",
            type: "function",
            function: { name: "get_forecast", arguments: '{"location":"Paris","days":3}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "mcp-6", content: "Error: JSON-RPC error -32602: Unknown tool: get_forecast" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "mcp-7", type: "function", function: { name: "get_weather_data", arguments: '{"location":"Tokyo"}' } },
        ],
      },
    ]);
    expect(rendered.pendingCallIds).toEqual(["mcp-7"]);
    expect(rendered.skipped.filter((entry) => !entry.reason.includes("protocol traffic"))).toEqual([
      {
        index: 10,
        part: 0,
        reason:
          "content[0] resource_link: only text parts are allowed in a Chat Completions tool message; sent as a text reference",
      },
      {
        index: 10,
        part: 1,
        reason:
          "content[1] resource: only text parts are allowed in a Chat Completions tool message; sent as a text reference",
      },
      {
        index: 11,
        part: 1,
        reason:
          "content[1] image: only text parts are allowed in a Chat Completions tool message; sent as a text reference",
      },
      {
        index: 11,
        part: 2,
        reason:
          "content[2] audio: only text parts are allowed in a Chat Completions tool message; sent as a text reference",
      },
      { index: 15, reason: "result for unknown call mcp-42" },
    ]);
    expect(rendered.adjustments).toEqual([
      { index: 12, change: 'is_error has no Chat Completions field: the result is sent with "Error:" in front' },
    ]);
  });

  it("keeps invalid JSON arguments verbatim", () => {
    const { events } = trace("chat");
    const messages = records(field(renderHistory(events, 5, "openai-chat").request, "messages"));
    expect(messages[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_Fx0BnVxQ7Wz1jK3mP9tYcR2a",
          type: "function",
          function: { name: "get_weather", arguments: '{"location":"Paris, France"}' },
        },
        {
          id: "call_9HkLqT2vNw4Xs8YbZr6MdE1c",
          type: "function",
          function: { name: "get_weather", arguments: '{"location":"Tokyo, Japan"}' },
        },
        {
          id: "call_Q3pUe7RmJx5Vc1AoWs9KgH4n",
          type: "function",
          function: { name: "search_flights", arguments: '{"from":"CDG","to":"HND","date":"2025-06-13' },
        },
      ],
    });
  });
});

describe("renderHistory → openai-responses", () => {
  it("renders call_id pairs, custom tool calls and the API's own reasoning items", () => {
    const { events, declarations } = trace("responses");
    const rendered = renderHistory(events, events.length, "openai-responses", declarations);
    const input = records(field(rendered.request, "input"));
    expect(input.map((item) => item.type ?? `message:${String(item.role)}`)).toEqual([
      "message:system",
      "message:user",
      "reasoning",
      "function_call",
      "function_call",
      "function_call_output",
      "function_call_output",
      "function_call",
      "function_call_output",
      "custom_tool_call",
      "custom_tool_call_output",
      "message:assistant",
      "message:user",
    ]);
    expect(input[3]).toEqual({
      type: "function_call",
      call_id: "call_mZ6tY3HqKj0sX8vB2nR4wP1e",
      name: "get_weather",
      arguments: '{"location":"Paris, France"}',
      id: "fc_6848a1f8a7c48191b7a2f9e1a6c2d8e40ee7ffcd1f1b4a8b",
    });
    expect(input[9]).toEqual({
      type: "custom_tool_call",
      call_id: "call_Xo2cV6bN0mQ4wE8rT3yU7iP1",
      name: "timestamp",
      input: "March 3 at 9AM",
      id: "ctc_6848a1fb3e2c8191b4a5f6d7e8c9b0a10ee7ffcd1f1b4a8b",
    });
    expect(input[10]).toEqual({
      type: "custom_tool_call_output",
      call_id: "call_Xo2cV6bN0mQ4wE8rT3yU7iP1",
      output: "saved reminder rem_8812",
    });
    expect(input[12]).toEqual({ role: "user", content: "Thanks!" });
    expect(rendered.skipped).toEqual([{ index: 7, reason: "result for unknown call call_Vb3StaleN8m2Lk6Jh4Gf0Ds9" }]);
    expect(field(rendered.request, "tools")).toMatchObject([
      { type: "function", name: "get_weather", parameters: { required: ["location"] } },
      { type: "function", name: "timestamp", parameters: { type: "object", properties: {} } },
    ]);
  });
});

describe("renderHistory → gemini", () => {
  it("omits synthetic ids, names each functionResponse after its call and passes thought signatures back", () => {
    const { events, declarations } = trace("geminiNoIds");
    const rendered = renderHistory(events, events.length, "gemini", declarations);
    expect(rendered.request).toEqual({
      systemInstruction: { parts: [{ text: "You are a travel assistant." }] },
      contents: [
        { role: "user", parts: [{ text: "Weather in Paris and Tokyo, and the time in Tokyo?" }] },
        {
          role: "model",
          parts: [
            { text: "**Planning the lookups**\nThree independent calls.", thought: true },
            {
              functionCall: { name: "get_weather", args: { location: "Paris, France" } },
              thoughtSignature: "CiQB0e2Kb7ZlQy0v1i3X7mLkQ9pYwT5sRr2nUuJ4hGc8fD6aEeE=",
            },
            { functionCall: { name: "get_weather", args: { location: "Tokyo, Japan" } } },
            { functionCall: { name: "get_local_time", args: { timezone: "Asia/Tokyo" } } },
          ],
        },
        {
          role: "user",
          parts: [
            {
              functionResponse: { name: "get_local_time", response: { error: "time service unavailable (HTTP 503)" } },
            },
            { functionResponse: { name: "get_weather", response: { temp_c: 18, conditions: "cloudy" } } },
            { functionResponse: { name: "get_weather", response: { temp_c: 24, conditions: "sunny" } } },
          ],
        },
        {
          role: "model",
          parts: [{ text: "Paris is 18 °C and cloudy; Tokyo is 24 °C and sunny. The time service is down right now." }],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Get the current weather for a city.",
              parameters: {
                type: "OBJECT",
                properties: { location: { type: "STRING", description: "City and country" } },
                required: ["location"],
              },
            },
            {
              name: "get_local_time",
              description: "Get the current local time in an IANA time zone.",
              parameters: { type: "OBJECT", properties: { timezone: { type: "STRING" } }, required: ["timezone"] },
            },
          ],
        },
      ],
    });
    expect(rendered.skipped).toEqual([{ index: 9, reason: "result for unknown call get_exchange_rate#unmatched-0" }]);
  });

  it("keeps real ids and wraps non-object results from other vendors", () => {
    const ids = trace("geminiIds");
    const contents = records(field(renderHistory(ids.events, ids.events.length, "gemini").request, "contents"));
    expect(contents[2]?.parts).toEqual([
      { functionResponse: { name: "get_stock_price", response: { price: 212.4, currency: "USD" }, id: "c7m3x0ws" } },
      { functionResponse: { name: "get_stock_price", response: { price: 178.1, currency: "USD" }, id: "8f2k1q9z" } },
    ]);

    const anthropic = trace("anthropic");
    const fromAnthropic = records(field(renderHistory(anthropic.events, 12, "gemini").request, "contents"));
    expect(records(fromAnthropic[2]?.parts).map((part) => part.functionResponse)).toEqual([
      { name: "get_weather", id: "toolu_01A09q90qw90lq917835lq9", response: { temp_c: 18, conditions: "cloudy" } },
      { name: "get_weather", id: "toolu_01B7pF3hXjq2vLkLmNo4RsTu", response: { temp_c: 24, conditions: "sunny" } },
      {
        name: "get_local_time",
        id: "toolu_01CkT9wQz8RmYvE2sHd5FgJa",
        response: { error: 'Error: unknown time zone "Asia/Tokio". Did you mean "Asia/Tokyo"?' },
      },
      {
        name: "render_map",
        id: "toolu_01DmV6xNc3BqLr8tWy1ZpKeH",
        response: { output: "Map of Tokyo, 512x512" },
        // The image of the result goes as a multimodal functionResponse part.
        parts: [
          {
            inlineData: {
              mimeType: "image/png",
              data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
            },
          },
        ],
      },
    ]);
  });
});
