// Reads the three span conventions Toolscope understands — OpenTelemetry GenAI semantic conventions, the
// Vercel AI SDK's `ai.*` spans, OpenInference — into two neutral views: a model call (chat: input and output
// messages, system instructions, tool definitions, usage) and a tool execution. Pure and client-safe.
import type { AttributeValue, Attributes, OtelSpan } from "./otlp-types.ts";
import { STATUS_ERROR } from "./otlp-types.ts";

export type Convention = "gen_ai" | "vercel_ai" | "openinference";

/** A message part in the GenAI conventions' shape (gen_ai.input.messages); other vendors are converted to it. */
export type MessagePart =
  | { type: "text"; content: string }
  | { type: "reasoning"; content: string }
  | { type: "tool_call"; id: string | null; name: string; arguments: unknown }
  | { type: "tool_call_response"; id: string | null; response: unknown; isError?: boolean }
  | { type: "other"; value: unknown };

export type Message = { role: string; parts: MessagePart[]; finishReason?: string };

export type ToolDefinition = { name: string; description?: string; inputSchema?: unknown; outputSchema?: unknown; raw: unknown };

export type Usage = Record<string, number>;

export type ChatView = {
  span: OtelSpan;
  convention: Convention;
  system: string | null;
  input: Message[] | null;
  output: Message[] | null;
  tools: ToolDefinition[];
  usage: Usage;
  model: string | null;
};

export type ToolView = {
  span: OtelSpan;
  convention: Convention;
  callId: string | null;
  name: string;
  arguments: string | null;
  result: string | null;
  description: string | null;
  type: string | null;
  error: { message: string; type: string | null } | null;
};

// ─── attribute helpers ──────────────────────────────────────────────────────────────────────────

export function stringAttribute(attributes: Attributes, key: string): string | null {
  const value = attributes[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

function numberAttribute(attributes: Attributes, key: string): number | null {
  const value = attributes[key];
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON-valued attribute: the conventions send JSON as a string; some SDKs send it structured. */
function jsonAttribute(attributes: Attributes, key: string): unknown {
  const value = attributes[key];
  if (typeof value === "string") return parseJson(value);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** Text a value stands for: strings verbatim, anything else as compact JSON. */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value ?? null) ?? "null";
}

// ─── GenAI semantic conventions ─────────────────────────────────────────────────────────────────

function genAiParts(value: unknown): MessagePart[] {
  if (!Array.isArray(value)) return [];
  return value.map((part): MessagePart => {
    if (!isRecord(part)) return { type: "other", value: part };
    switch (part.type) {
      case "text":
        return { type: "text", content: str(part.content) ?? asText(part.content) };
      case "reasoning":
      case "thinking":
        return { type: "reasoning", content: str(part.content) ?? asText(part.content) };
      case "tool_call":
        return { type: "tool_call", id: str(part.id), name: str(part.name) ?? "unknown", arguments: part.arguments };
      case "tool_call_response":
        return { type: "tool_call_response", id: str(part.id), response: part.response ?? part.result };
      default:
        return { type: "other", value: part };
    }
  });
}

function genAiMessages(value: unknown): Message[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).map((message) => {
    const result: Message = { role: str(message.role) ?? "user", parts: genAiParts(message.parts) };
    const finish = str(message.finish_reason);
    if (finish !== null) result.finishReason = finish;
    return result;
  });
}

function systemText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return null;
  const texts = value.flatMap((part) => (isRecord(part) && typeof part.content === "string" ? [part.content] : typeof part === "string" ? [part] : []));
  return texts.length > 0 ? texts.join("\n") : null;
}

function toolDefinition(value: unknown): ToolDefinition | null {
  if (!isRecord(value)) return null;
  // {type:"function", name, description, parameters|inputSchema} or OpenAI's {type:"function", function:{…}}.
  const fn = isRecord(value.function) ? value.function : value;
  const name = str(fn.name);
  if (name === null) return null;
  const definition: ToolDefinition = { name, raw: value };
  const description = str(fn.description);
  if (description !== null) definition.description = description;
  const input = fn.inputSchema ?? fn.input_schema ?? fn.parameters;
  if (input !== undefined) definition.inputSchema = input;
  const output = fn.outputSchema ?? fn.output_schema;
  if (output !== undefined) definition.outputSchema = output;
  return definition;
}

function definitions(value: unknown): ToolDefinition[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const definition = toolDefinition(typeof item === "string" ? parseJson(item) : item);
    return definition === null ? [] : [definition];
  });
}

const USAGE_KEYS: Record<string, string> = {
  "gen_ai.usage.input_tokens": "input_tokens",
  "gen_ai.usage.output_tokens": "output_tokens",
  "gen_ai.usage.cache_read.input_tokens": "cache_read_input_tokens",
  "gen_ai.usage.cache_creation.input_tokens": "cache_creation_input_tokens",
  "gen_ai.usage.reasoning.output_tokens": "reasoning_output_tokens",
  "gen_ai.usage.prompt_tokens": "input_tokens",
  "gen_ai.usage.completion_tokens": "output_tokens",
  "ai.usage.inputTokens": "input_tokens",
  "ai.usage.outputTokens": "output_tokens",
  "ai.usage.promptTokens": "input_tokens",
  "ai.usage.completionTokens": "output_tokens",
  "ai.usage.totalTokens": "total_tokens",
  "ai.usage.reasoningTokens": "reasoning_output_tokens",
  "ai.usage.cachedInputTokens": "cache_read_input_tokens",
  "llm.token_count.prompt": "input_tokens",
  "llm.token_count.completion": "output_tokens",
  "llm.token_count.total": "total_tokens",
};

function usageOf(attributes: Attributes): Usage {
  const usage: Usage = {};
  for (const [key, name] of Object.entries(USAGE_KEYS)) {
    const value = numberAttribute(attributes, key);
    if (value !== null && usage[name] === undefined) usage[name] = value;
  }
  return usage;
}

function errorOf(span: OtelSpan): { message: string; type: string | null } | null {
  const exception = span.events.find((event) => event.name === "exception");
  const errorType = stringAttribute(span.attributes, "error.type");
  if (span.status.code !== STATUS_ERROR && exception === undefined && errorType === null) return null;
  const message =
    (exception && stringAttribute(exception.attributes, "exception.message")) ?? span.status.message ?? errorType ?? "the span ended with an error status";
  const type = (exception && stringAttribute(exception.attributes, "exception.type")) ?? errorType;
  return { message, type };
}

// ─── Vercel AI SDK (ai.* spans) ─────────────────────────────────────────────────────────────────

function vercelContent(role: string, content: unknown): MessagePart[] {
  if (typeof content === "string") return [{ type: "text", content }];
  if (!Array.isArray(content)) return [];
  return content.map((part): MessagePart => {
    if (!isRecord(part)) return { type: "other", value: part };
    switch (part.type) {
      case "text":
        return { type: "text", content: str(part.text) ?? "" };
      case "reasoning":
        return { type: "reasoning", content: str(part.text) ?? "" };
      case "tool-call":
        return { type: "tool_call", id: str(part.toolCallId), name: str(part.toolName) ?? "unknown", arguments: part.input ?? part.args };
      case "tool-result": {
        // ai@5+: output {type: "text"|"json"|"error-text"|"error-json"|"content", value}; ai@4: result.
        const output = part.output;
        if (isRecord(output) && typeof output.type === "string") {
          return { type: "tool_call_response", id: str(part.toolCallId), response: output.value, isError: output.type.startsWith("error") };
        }
        return { type: "tool_call_response", id: str(part.toolCallId), response: part.result ?? output, isError: part.isError === true };
      }
      default:
        return { type: "other", value: { role, ...part } };
    }
  });
}

function vercelMessages(value: unknown): Message[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).map((message) => {
    const role = str(message.role) ?? "user";
    return { role, parts: vercelContent(role, message.content) };
  });
}

function vercelOutput(attributes: Attributes): Message[] | null {
  const parts: MessagePart[] = [];
  const reasoning = stringAttribute(attributes, "ai.response.reasoning") ?? stringAttribute(attributes, "ai.response.reasoningText");
  if (reasoning) parts.push({ type: "reasoning", content: reasoning });
  const text = stringAttribute(attributes, "ai.response.text");
  if (text) parts.push({ type: "text", content: text });
  const calls = jsonAttribute(attributes, "ai.response.toolCalls");
  if (Array.isArray(calls)) {
    for (const call of calls) {
      if (!isRecord(call)) continue;
      parts.push({ type: "tool_call", id: str(call.toolCallId), name: str(call.toolName) ?? "unknown", arguments: call.input ?? call.args });
    }
  }
  if (parts.length === 0 && text === null && calls === undefined) return null;
  const message: Message = { role: "assistant", parts };
  const finish = stringAttribute(attributes, "ai.response.finishReason");
  if (finish !== null) message.finishReason = finish;
  return [message];
}

/** The agent-level `ai.prompt` ({system, prompt | messages}) as a message list. */
function vercelPrompt(value: unknown): unknown {
  if (!isRecord(value)) return undefined;
  const system = typeof value.system === "string" ? [{ role: "system", content: value.system }] : [];
  if (Array.isArray(value.messages)) return [...system, ...value.messages];
  if (typeof value.prompt === "string") return [...system, { role: "user", content: value.prompt }];
  return system.length > 0 ? system : undefined;
}

function vercelSystem(messages: Message[] | null): string | null {
  const system = messages?.find((message) => message.role === "system");
  if (!system) return null;
  return system.parts.flatMap((part) => (part.type === "text" ? [part.content] : [])).join("\n");
}

// ─── OpenInference (llm.*, tool.*) ──────────────────────────────────────────────────────────────

/** OpenInference flattens lists into indexed keys: `llm.input_messages.0.message.role`. */
function indexed(attributes: Attributes, prefix: string): Map<number, Attributes> {
  const groups = new Map<number, Attributes>();
  const head = `${prefix}.`;
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(head)) continue;
    const rest = key.slice(head.length);
    const dot = rest.indexOf(".");
    const index = Number(dot === -1 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(index)) continue;
    const group = groups.get(index) ?? {};
    group[dot === -1 ? "" : rest.slice(dot + 1)] = value;
    groups.set(index, group);
  }
  return new Map([...groups].sort(([a], [b]) => a - b));
}

function openInferenceMessages(attributes: Attributes, prefix: string): Message[] | null {
  const messages = indexed(attributes, prefix);
  if (messages.size === 0) return null;
  return [...messages.values()].map((message) => {
    const role = stringAttribute(message, "message.role") ?? "user";
    const parts: MessagePart[] = [];
    const content = stringAttribute(message, "message.content");
    if (content) {
      const toolCallId = stringAttribute(message, "message.tool_call_id");
      parts.push(role === "tool" ? { type: "tool_call_response", id: toolCallId, response: content } : { type: "text", content });
    }
    for (const item of indexed(message, "message.contents").values()) {
      const partText = stringAttribute(item, "message_content.text");
      if (partText) parts.push({ type: "text", content: partText });
    }
    for (const call of indexed(message, "message.tool_calls").values()) {
      const args = stringAttribute(call, "tool_call.function.arguments");
      parts.push({ type: "tool_call", id: stringAttribute(call, "tool_call.id"), name: stringAttribute(call, "tool_call.function.name") ?? "unknown", arguments: args });
    }
    return { role, parts };
  });
}

function openInferenceTools(attributes: Attributes): ToolDefinition[] {
  return [...indexed(attributes, "llm.tools").values()].flatMap((tool) => {
    const schema = stringAttribute(tool, "tool.json_schema");
    const definition = schema === null ? null : toolDefinition(parseJson(schema));
    return definition === null ? [] : [definition];
  });
}

// ─── classification ─────────────────────────────────────────────────────────────────────────────

const CHAT_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);
const VERCEL_CHAT_OPERATIONS = new Set(["ai.generateText.doGenerate", "ai.streamText.doStream", "ai.generateObject.doGenerate", "ai.streamObject.doStream"]);

function operation(span: OtelSpan): string | null {
  return stringAttribute(span.attributes, "gen_ai.operation.name");
}

function vercelOperation(span: OtelSpan): string {
  return stringAttribute(span.attributes, "ai.operationId") ?? span.name;
}

export function toolView(span: OtelSpan): ToolView | null {
  const attributes = span.attributes;
  if (operation(span) === "execute_tool") {
    return {
      span,
      convention: "gen_ai",
      callId: stringAttribute(attributes, "gen_ai.tool.call.id"),
      name: stringAttribute(attributes, "gen_ai.tool.name") ?? span.name.replace(/^execute_tool\s*/, "") ?? "unknown",
      arguments: textAttribute(attributes, "gen_ai.tool.call.arguments"),
      result: textAttribute(attributes, "gen_ai.tool.call.result"),
      description: stringAttribute(attributes, "gen_ai.tool.description"),
      type: stringAttribute(attributes, "gen_ai.tool.type"),
      error: errorOf(span),
    };
  }
  if (vercelOperation(span) === "ai.toolCall") {
    return {
      span,
      convention: "vercel_ai",
      callId: stringAttribute(attributes, "ai.toolCall.id"),
      name: stringAttribute(attributes, "ai.toolCall.name") ?? "unknown",
      arguments: textAttribute(attributes, "ai.toolCall.args") ?? textAttribute(attributes, "ai.toolCall.input"),
      result: textAttribute(attributes, "ai.toolCall.result") ?? textAttribute(attributes, "ai.toolCall.output"),
      description: null,
      type: null,
      error: errorOf(span),
    };
  }
  if (stringAttribute(attributes, "openinference.span.kind") === "TOOL") {
    return {
      span,
      convention: "openinference",
      callId: stringAttribute(attributes, "tool_call.id") ?? stringAttribute(attributes, "tool.id"),
      name: stringAttribute(attributes, "tool.name") ?? span.name,
      // tool.parameters is the parameters' JSON Schema; the arguments are the span's input.
      arguments: textAttribute(attributes, "input.value"),
      result: textAttribute(attributes, "output.value"),
      description: stringAttribute(attributes, "tool.description"),
      type: null,
      error: errorOf(span),
    };
  }
  return null;
}

/** A text-valued attribute; structured values (some SDKs send objects) as compact JSON. */
function textAttribute(attributes: Attributes, key: string): string | null {
  const value: AttributeValue | undefined = attributes[key];
  if (value === undefined || value === null) return null;
  return asText(value);
}

/**
 * A model call. Agent-level spans (invoke_agent, ai.generateText) repeat their steps' messages and are
 * only read when `containers` is set (a trace with no step-level model spans).
 */
export function chatView(span: OtelSpan, containers = false): ChatView | null {
  const attributes = span.attributes;
  const op = operation(span);
  const hasGenAiMessages = attributes["gen_ai.input.messages"] !== undefined || attributes["gen_ai.output.messages"] !== undefined;
  if (hasGenAiMessages && (op === null || CHAT_OPERATIONS.has(op) || (containers && op === "invoke_agent"))) {
    return {
      span,
      convention: "gen_ai",
      system: systemText(jsonAttribute(attributes, "gen_ai.system_instructions")),
      input: genAiMessages(jsonAttribute(attributes, "gen_ai.input.messages")),
      output: genAiMessages(jsonAttribute(attributes, "gen_ai.output.messages")),
      tools: definitions(jsonAttribute(attributes, "gen_ai.tool.definitions")),
      usage: usageOf(attributes),
      model: stringAttribute(attributes, "gen_ai.response.model") ?? stringAttribute(attributes, "gen_ai.request.model"),
    };
  }
  const vercel = vercelOperation(span);
  if (VERCEL_CHAT_OPERATIONS.has(vercel) || (containers && /^ai\.(generate|stream)(Text|Object)$/.test(vercel))) {
    const input = vercelMessages(jsonAttribute(attributes, "ai.prompt.messages") ?? vercelPrompt(jsonAttribute(attributes, "ai.prompt")));
    return {
      span,
      convention: "vercel_ai",
      system: vercelSystem(input),
      input: input?.filter((message) => message.role !== "system") ?? null,
      output: vercelOutput(attributes),
      tools: definitions(attributes["ai.prompt.tools"]),
      usage: usageOf(attributes),
      model: stringAttribute(attributes, "ai.response.model") ?? stringAttribute(attributes, "ai.model.id"),
    };
  }
  if (stringAttribute(attributes, "openinference.span.kind") === "LLM") {
    const input = openInferenceMessages(attributes, "llm.input_messages");
    return {
      span,
      convention: "openinference",
      system: vercelSystem(input),
      input: input?.filter((message) => message.role !== "system") ?? null,
      output: openInferenceMessages(attributes, "llm.output_messages"),
      tools: openInferenceTools(attributes),
      usage: usageOf(attributes),
      model: stringAttribute(attributes, "llm.model_name"),
    };
  }
  return null;
}

/** The error a span reports (ERROR status, an exception event, or error.type), if any. */
export function spanError(span: OtelSpan): { message: string; type: string | null } | null {
  return errorOf(span);
}

/** Attributes that name the conversation a span belongs to, strongest first. */
const THREAD_KEYS = ["conversationId", "conversation_id", "threadId", "thread_id", "sessionId", "session_id", "chatId", "chat_id"];

export type ThreadHint = { groupId: string; source: string; rank: number };

export function threadHint(span: OtelSpan): ThreadHint | null {
  const attributes = span.attributes;
  const conversation = stringAttribute(attributes, "gen_ai.conversation.id");
  if (conversation) return { groupId: conversation, source: "gen_ai.conversation.id", rank: 0 };
  for (const prefix of ["ai.telemetry.metadata.", "ai.settings.context."]) {
    for (const key of THREAD_KEYS) {
      const value = stringAttribute(attributes, prefix + key);
      if (value) return { groupId: value, source: prefix + key, rank: 1 };
    }
  }
  const session = stringAttribute(attributes, "session.id");
  if (session) return { groupId: session, source: "session.id", rank: 2 };
  return null;
}
