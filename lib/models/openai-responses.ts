// OpenAI Responses: POST {baseUrl}/responses with stream: true; typed events, the last of which
// (response.completed / response.incomplete) carries the whole response.
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";
import { joinUrl, parseEventData, ProviderError, type ApiAdapter, type StreamAccumulator } from "./api-adapter.ts";
import type { LiveOutput } from "./schemas.ts";
import { openAIResponsesUsage } from "./usage.ts";

function accumulator(): StreamAccumulator {
  let snapshot: JsonRecord | null = null;
  let final: JsonRecord | null = null;
  const items = new Map<number, JsonRecord>();
  let text = "";
  let reasoning = "";

  const item = (event: JsonRecord): JsonRecord | undefined =>
    typeof event.output_index === "number" ? items.get(event.output_index) : undefined;

  const live = (): LiveOutput => ({
    text,
    reasoning,
    calls: [...items.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, value]) => value)
      .filter((value) => value.type === "function_call" || value.type === "custom_tool_call")
      .map((value) => ({
        id: typeof value.call_id === "string" ? value.call_id : null,
        name: typeof value.name === "string" ? value.name : "",
        arguments:
          typeof value.arguments === "string" ? value.arguments : typeof value.input === "string" ? value.input : "",
      })),
  });

  return {
    accept(event) {
      const data = parseEventData(event);
      const type = typeof data.type === "string" ? data.type : (event.event ?? "");
      switch (type) {
        case "error":
        case "response.failed":
          throw new ProviderError(event.data);
        case "response.created":
        case "response.in_progress":
          if (isRecord(data.response)) snapshot = data.response;
          return;
        case "response.completed":
        case "response.incomplete":
          if (isRecord(data.response)) final = data.response;
          return;
        case "response.output_item.added":
        case "response.output_item.done":
          if (typeof data.output_index === "number" && isRecord(data.item))
            items.set(data.output_index, { ...data.item });
          return;
        case "response.output_text.delta":
          if (typeof data.delta === "string") text += data.delta;
          return;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          if (typeof data.delta === "string") reasoning += data.delta;
          return;
        case "response.function_call_arguments.delta":
        case "response.custom_tool_call_input.delta": {
          const target = item(data);
          const key = type === "response.custom_tool_call_input.delta" ? "input" : "arguments";
          if (target !== undefined && typeof data.delta === "string")
            target[key] = `${typeof target[key] === "string" ? target[key] : ""}${data.delta}`;
          return;
        }
        default:
          // Other events (content_part.added, output_text.done, …) repeat what the ones above carry.
          return;
      }
    },
    live,
    finish() {
      const response: JsonRecord | null =
        final ??
        (snapshot === null
          ? null
          : { ...snapshot, output: [...items.entries()].sort(([a], [b]) => a - b).map(([, value]) => value) });
      if (response === null) throw new ProviderError("The stream ended before any answer arrived");
      const status = typeof response.status === "string" ? response.status : null;
      const incomplete =
        isRecord(response.incomplete_details) && typeof response.incomplete_details.reason === "string"
          ? response.incomplete_details.reason
          : null;
      return {
        response,
        usage: openAIResponsesUsage(response.usage),
        stopReason: incomplete === null ? status : `${status ?? "incomplete"}: ${incomplete}`,
        live: live(),
      };
    },
  };
}

export const openAIResponsesAdapter: ApiAdapter = {
  api: "openai-responses",
  request(target, history) {
    const body: JsonRecord = { model: target.model, ...history, stream: true };
    if (target.maxTokens !== undefined) body.max_output_tokens = target.maxTokens;
    return {
      url: joinUrl(target.baseUrl, "responses"),
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body,
    };
  },
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  accumulator,
};
