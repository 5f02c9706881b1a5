// Test support: a scripted answer written out in each model API's real streaming wire format (OpenAI Chat and
// Responses SSE, Anthropic Messages SSE, Gemini streamGenerateContent SSE). Used by fake-provider.ts.
import type { ModelApi } from "./schemas.ts";

export type FakeToolCall = { id?: string; name: string; arguments: Record<string, unknown> | string };

/** One scripted model turn. `error` answers with that HTTP status and body instead; `streamError` fails mid-stream. */
export type FakeAnswer = {
  text?: string;
  reasoning?: string;
  toolCalls?: FakeToolCall[];
  usage?: { input: number; output: number; cached?: number; reasoning?: number };
  /** Pause between events, to watch an answer stream in. */
  delayMs?: number;
  error?: { status: number; body: unknown };
  /** After the text so far, the stream carries the API's error event with this message and ends. */
  streamError?: string;
  /** Never answers: for timeouts. */
  hang?: boolean;
};

/** One piece of the stream: an SSE event (with its `event:` name where the API uses one). */
export type WireEvent = { event?: string; data: unknown };

const CREATED = 1_763_800_000;

/** Splits text the way a model streams it: a few characters per event. */
export function pieces(text: string, size = 6): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

function usageOf(answer: FakeAnswer): { input: number; output: number; cached: number; reasoning: number } {
  const output = Math.max(
    1,
    Math.ceil(
      ((answer.text ?? "").length + (answer.reasoning ?? "").length + JSON.stringify(answer.toolCalls ?? []).length) /
        4,
    ),
  );
  return {
    input: answer.usage?.input ?? 100,
    output: answer.usage?.output ?? output,
    cached: answer.usage?.cached ?? 0,
    reasoning: answer.usage?.reasoning ?? 0,
  };
}

function callId(api: ModelApi, call: FakeToolCall, turn: number, index: number): string {
  if (call.id !== undefined) return call.id;
  return api === "anthropic" ? `toolu_fake_${turn}_${index}` : `call_fake_${turn}_${index}`;
}

function openAIChatEvents(answer: FakeAnswer, model: string, turn: number): WireEvent[] {
  const base = {
    id: `chatcmpl-fake-${turn}`,
    object: "chat.completion.chunk",
    created: CREATED,
    model,
    system_fingerprint: "fp_fake",
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null },
  });
  const events: WireEvent[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of pieces(answer.reasoning ?? "")) events.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(answer.text ?? "")) events.push(chunk({ content: piece }));
  if (answer.streamError !== undefined)
    return [
      ...events,
      { data: { error: { message: answer.streamError, type: "server_error", param: null, code: null } } },
    ];
  (answer.toolCalls ?? []).forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: callId("openai-chat", call, turn, index),
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const piece of pieces(argumentsText(call), 9))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, (answer.toolCalls ?? []).length > 0 ? "tool_calls" : "stop"));
  const usage = usageOf(answer);
  events.push({
    data: {
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cached, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: usage.reasoning,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    },
  });
  events.push({ data: "[DONE]" });
  return events;
}

// eslint-disable-next-line max-lines-per-function -- grew past the cap when Prettier wrapped it at 120 columns; split along its seams when next changed
function openAIResponsesEvents(answer: FakeAnswer, model: string, turn: number): WireEvent[] {
  let sequence = 0;
  const events: WireEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>) =>
    events.push({ event: type, data: { type, sequence_number: sequence++, ...fields } });
  const response = {
    id: `resp_fake_${turn}`,
    object: "response",
    created_at: CREATED,
    model,
    output: [] as unknown[],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
  };
  emit("response.created", { response: { ...response, status: "in_progress", usage: null } });
  emit("response.in_progress", { response: { ...response, status: "in_progress", usage: null } });
  const output: Record<string, unknown>[] = [];
  if (answer.reasoning !== undefined) {
    const index = output.length;
    const id = `rs_fake_${turn}`;
    emit("response.output_item.added", { output_index: index, item: { id, type: "reasoning", summary: [] } });
    emit("response.reasoning_summary_part.added", {
      item_id: id,
      output_index: index,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
    for (const piece of pieces(answer.reasoning))
      emit("response.reasoning_summary_text.delta", {
        item_id: id,
        output_index: index,
        summary_index: 0,
        delta: piece,
      });
    emit("response.reasoning_summary_text.done", {
      item_id: id,
      output_index: index,
      summary_index: 0,
      text: answer.reasoning,
    });
    const item = { id, type: "reasoning", summary: [{ type: "summary_text", text: answer.reasoning }] };
    emit("response.output_item.done", { output_index: index, item });
    output.push(item);
  }
  if (answer.text !== undefined) {
    const index = output.length;
    const id = `msg_fake_${turn}`;
    emit("response.output_item.added", {
      output_index: index,
      item: { id, type: "message", status: "in_progress", role: "assistant", content: [] },
    });
    emit("response.content_part.added", {
      item_id: id,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const piece of pieces(answer.text))
      emit("response.output_text.delta", {
        item_id: id,
        output_index: index,
        content_index: 0,
        delta: piece,
        logprobs: [],
      });
    if (answer.streamError !== undefined) {
      emit("error", { code: "server_error", message: answer.streamError, param: null });
      return events;
    }
    emit("response.output_text.done", {
      item_id: id,
      output_index: index,
      content_index: 0,
      text: answer.text,
      logprobs: [],
    });
    const part = { type: "output_text", text: answer.text, annotations: [] };
    emit("response.content_part.done", { item_id: id, output_index: index, content_index: 0, part });
    const item = { id, type: "message", status: "completed", role: "assistant", content: [part] };
    emit("response.output_item.done", { output_index: index, item });
    output.push(item);
  } else if (answer.streamError !== undefined) {
    emit("error", { code: "server_error", message: answer.streamError, param: null });
    return events;
  }
  (answer.toolCalls ?? []).forEach((call, position) => {
    const index = output.length;
    const id = `fc_fake_${turn}_${position}`;
    const args = argumentsText(call);
    const callIdValue = callId("openai-responses", call, turn, position);
    emit("response.output_item.added", {
      output_index: index,
      item: { id, type: "function_call", status: "in_progress", arguments: "", call_id: callIdValue, name: call.name },
    });
    for (const piece of pieces(args, 9))
      emit("response.function_call_arguments.delta", { item_id: id, output_index: index, delta: piece });
    emit("response.function_call_arguments.done", { item_id: id, output_index: index, arguments: args });
    const item = {
      id,
      type: "function_call",
      status: "completed",
      arguments: args,
      call_id: callIdValue,
      name: call.name,
    };
    emit("response.output_item.done", { output_index: index, item });
    output.push(item);
  });
  const usage = usageOf(answer);
  emit("response.completed", {
    response: {
      ...response,
      status: "completed",
      output,
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cached },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: usage.reasoning },
        total_tokens: usage.input + usage.output,
      },
    },
  });
  return events;
}

function anthropicEvents(answer: FakeAnswer, model: string, turn: number): WireEvent[] {
  const events: WireEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown> = {}) =>
    events.push({ event: type, data: { type, ...fields } });
  const usage = usageOf(answer);
  emit("message_start", {
    message: {
      id: `msg_fake_${turn}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input - usage.cached,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage.cached,
        output_tokens: 1,
      },
    },
  });
  emit("ping");
  let index = 0;
  if (answer.reasoning !== undefined) {
    emit("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const piece of pieces(answer.reasoning))
      emit("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } });
    emit("content_block_delta", {
      index,
      delta: { type: "signature_delta", signature: `c2lnbmF0dXJlLWZha2UtJHt0dXJufQ${turn}` },
    });
    emit("content_block_stop", { index });
    index += 1;
  }
  if (answer.text !== undefined) {
    emit("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of pieces(answer.text))
      emit("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    if (answer.streamError !== undefined) {
      emit("error", { error: { type: "overloaded_error", message: answer.streamError } });
      return events;
    }
    emit("content_block_stop", { index });
    index += 1;
  } else if (answer.streamError !== undefined) {
    emit("error", { error: { type: "overloaded_error", message: answer.streamError } });
    return events;
  }
  (answer.toolCalls ?? []).forEach((call, position) => {
    emit("content_block_start", {
      index,
      content_block: { type: "tool_use", id: callId("anthropic", call, turn, position), name: call.name, input: {} },
    });
    emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
    for (const piece of pieces(argumentsText(call), 9))
      emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    emit("content_block_stop", { index });
    index += 1;
  });
  emit("message_delta", {
    delta: { stop_reason: (answer.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  emit("message_stop");
  return events;
}

function geminiEvents(answer: FakeAnswer, model: string, turn: number): WireEvent[] {
  const usage = usageOf(answer);
  const meta = { modelVersion: model, responseId: `fake-response-${turn}` };
  const promptOnly = { promptTokenCount: usage.input, totalTokenCount: usage.input };
  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
    data: {
      candidates: [{ content: { parts, role: "model" }, index: 0, ...extra }],
      usageMetadata: promptOnly,
      ...meta,
    },
  });
  const events: WireEvent[] = [];
  for (const piece of pieces(answer.reasoning ?? "")) events.push(chunk([{ text: piece, thought: true }]));
  for (const piece of pieces(answer.text ?? "")) events.push(chunk([{ text: piece }]));
  if (answer.streamError !== undefined)
    return [...events, { data: { error: { code: 503, message: answer.streamError, status: "UNAVAILABLE" } } }];
  // Gemini sends each function call whole; parallel calls share one chunk. The first carries the thought signature.
  const calls = (answer.toolCalls ?? []).map((call, position) => {
    const functionCall: Record<string, unknown> = {
      name: call.name,
      args: typeof call.arguments === "string" ? { input: call.arguments } : call.arguments,
    };
    if (call.id !== undefined) functionCall.id = call.id;
    return position === 0 ? { functionCall, thoughtSignature: `ZmFrZS1zaWduYXR1cmU${turn}` } : { functionCall };
  });
  const usageMetadata = {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output - usage.reasoning,
    totalTokenCount: usage.input + usage.output,
    cachedContentTokenCount: usage.cached,
    thoughtsTokenCount: usage.reasoning,
  };
  events.push({
    data: {
      candidates: [
        {
          content: { parts: calls.length > 0 ? calls : [{ text: "" }], role: "model" },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata,
      ...meta,
    },
  });
  return events;
}

/** The events of `answer` in `api`'s wire format; `turn` numbers the ids. */
export function wireEvents(api: ModelApi, answer: FakeAnswer, model: string, turn: number): WireEvent[] {
  switch (api) {
    case "openai-chat":
      return openAIChatEvents(answer, model, turn);
    case "openai-responses":
      return openAIResponsesEvents(answer, model, turn);
    case "anthropic":
      return anthropicEvents(answer, model, turn);
    case "gemini":
      return geminiEvents(answer, model, turn);
  }
}

/** One event as SSE text. Gemini's server separates events with CRLF pairs; the others with LF. */
export function sseText(api: ModelApi, event: WireEvent): string {
  const newline = api === "gemini" ? "\r\n" : "\n";
  const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
  return `${event.event === undefined ? "" : `event: ${event.event}${newline}`}data: ${data}${newline}${newline}`;
}

/** The API's own error body for a refused key, as each provider words it. */
export function authErrorBody(api: ModelApi, sentKey: string | null): { status: number; body: unknown } {
  switch (api) {
    case "openai-chat":
    case "openai-responses":
      return {
        status: 401,
        body: {
          error: {
            message: `Incorrect API key provided: ${sentKey ?? "none"}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        },
      };
    case "anthropic":
      return {
        status: 401,
        body: {
          type: "error",
          error: { type: "authentication_error", message: "invalid x-api-key" },
          request_id: "req_fake",
        },
      };
    case "gemini":
      return {
        status: 400,
        body: {
          error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT" },
        },
      };
  }
}
