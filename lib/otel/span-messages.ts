// The message-level readers behind span-views.ts: attribute helpers, and each convention's messages, tool
// definitions and token usage (GenAI semantic conventions, the Vercel AI SDK's ai.* attributes, OpenInference's
// flattened llm.* keys), all converted to the GenAI conventions' message shape. Pure and client-safe.
import type { Attributes } from "./otlp-types.ts";

/** A message part in the GenAI conventions' shape (gen_ai.input.messages); other vendors are converted to it. */
export type MessagePart =
  | { type: "text"; content: string }
  | { type: "reasoning"; content: string }
  | { type: "tool_call"; id: string | null; name: string; arguments: unknown }
  | { type: "tool_call_response"; id: string | null; response: unknown; isError?: boolean }
  | { type: "other"; value: unknown };

export type Message = { role: string; parts: MessagePart[]; finishReason?: string };

export type ToolDefinition = {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  raw: unknown;
};

export type Usage = Record<string, number>;

// ─── attribute helpers ──────────────────────────────────────────────────────────────────────────

export function stringAttribute(attributes: Attributes, key: string): string | null {
  const value = attributes[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

export function numberAttribute(attributes: Attributes, key: string): number | null {
  const value = attributes[key];
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON-valued attribute: the conventions send JSON as a string; some SDKs send it structured. */
export function jsonAttribute(attributes: Attributes, key: string): unknown {
  const value = attributes[key];
  if (typeof value === "string") return parseJson(value);
  return value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** Text a value stands for: strings verbatim, anything else as compact JSON. */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value ?? null) ?? "null";
}

// ─── GenAI semantic conventions ─────────────────────────────────────────────────────────────────

export function genAiParts(value: unknown): MessagePart[] {
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

export function genAiMessages(value: unknown): Message[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).map((message) => {
    const result: Message = { role: str(message.role) ?? "user", parts: genAiParts(message.parts) };
    const finish = str(message.finish_reason);
    if (finish !== null) result.finishReason = finish;
    return result;
  });
}

export function systemText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return null;
  const texts = value.flatMap((part) =>
    isRecord(part) && typeof part.content === "string" ? [part.content] : typeof part === "string" ? [part] : [],
  );
  return texts.length > 0 ? texts.join("\n") : null;
}

export function toolDefinition(value: unknown): ToolDefinition | null {
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

export function definitions(value: unknown): ToolDefinition[] {
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

export function usageOf(attributes: Attributes): Usage {
  const usage: Usage = {};
  for (const [key, name] of Object.entries(USAGE_KEYS)) {
    const value = numberAttribute(attributes, key);
    if (value !== null && usage[name] === undefined) usage[name] = value;
  }
  return usage;
}

// ─── Vercel AI SDK (ai.* spans) ─────────────────────────────────────────────────────────────────

export function vercelContent(role: string, content: unknown): MessagePart[] {
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
        return {
          type: "tool_call",
          id: str(part.toolCallId),
          name: str(part.toolName) ?? "unknown",
          arguments: part.input ?? part.args,
        };
      case "tool-result": {
        // ai@5+: output {type: "text"|"json"|"error-text"|"error-json"|"content", value}; ai@4: result.
        const output = part.output;
        if (isRecord(output) && typeof output.type === "string") {
          return {
            type: "tool_call_response",
            id: str(part.toolCallId),
            response: output.value,
            isError: output.type.startsWith("error"),
          };
        }
        return {
          type: "tool_call_response",
          id: str(part.toolCallId),
          response: part.result ?? output,
          isError: part.isError === true,
        };
      }
      default:
        return { type: "other", value: { role, ...part } };
    }
  });
}

export function vercelMessages(value: unknown): Message[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).map((message) => {
    const role = str(message.role) ?? "user";
    return { role, parts: vercelContent(role, message.content) };
  });
}

export function vercelOutput(attributes: Attributes): Message[] | null {
  const parts: MessagePart[] = [];
  const reasoning =
    stringAttribute(attributes, "ai.response.reasoning") ?? stringAttribute(attributes, "ai.response.reasoningText");
  if (reasoning) parts.push({ type: "reasoning", content: reasoning });
  const text = stringAttribute(attributes, "ai.response.text");
  if (text) parts.push({ type: "text", content: text });
  const calls = jsonAttribute(attributes, "ai.response.toolCalls");
  if (Array.isArray(calls)) {
    for (const call of calls) {
      if (!isRecord(call)) continue;
      parts.push({
        type: "tool_call",
        id: str(call.toolCallId),
        name: str(call.toolName) ?? "unknown",
        arguments: call.input ?? call.args,
      });
    }
  }
  if (parts.length === 0 && text === null && calls === undefined) return null;
  const message: Message = { role: "assistant", parts };
  const finish = stringAttribute(attributes, "ai.response.finishReason");
  if (finish !== null) message.finishReason = finish;
  return [message];
}

/** The agent-level `ai.prompt` ({system, prompt | messages}) as a message list. */
export function vercelPrompt(value: unknown): unknown {
  if (!isRecord(value)) return undefined;
  const system = typeof value.system === "string" ? [{ role: "system", content: value.system }] : [];
  if (Array.isArray(value.messages)) return [...system, ...value.messages];
  if (typeof value.prompt === "string") return [...system, { role: "user", content: value.prompt }];
  return system.length > 0 ? system : undefined;
}

export function vercelSystem(messages: Message[] | null): string | null {
  const system = messages?.find((message) => message.role === "system");
  if (!system) return null;
  return system.parts.flatMap((part) => (part.type === "text" ? [part.content] : [])).join("\n");
}

// ─── OpenInference (llm.*, tool.*) ──────────────────────────────────────────────────────────────

/** OpenInference flattens lists into indexed keys: `llm.input_messages.0.message.role`. */
export function indexed(attributes: Attributes, prefix: string): Map<number, Attributes> {
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

export function openInferenceMessages(attributes: Attributes, prefix: string): Message[] | null {
  const messages = indexed(attributes, prefix);
  if (messages.size === 0) return null;
  return [...messages.values()].map((message) => {
    const role = stringAttribute(message, "message.role") ?? "user";
    const parts: MessagePart[] = [];
    const content = stringAttribute(message, "message.content");
    if (content) {
      const toolCallId = stringAttribute(message, "message.tool_call_id");
      parts.push(
        role === "tool" ? { type: "tool_call_response", id: toolCallId, response: content } : { type: "text", content },
      );
    }
    for (const item of indexed(message, "message.contents").values()) {
      const partText = stringAttribute(item, "message_content.text");
      if (partText) parts.push({ type: "text", content: partText });
    }
    for (const call of indexed(message, "message.tool_calls").values()) {
      const args = stringAttribute(call, "tool_call.function.arguments");
      parts.push({
        type: "tool_call",
        id: stringAttribute(call, "tool_call.id"),
        name: stringAttribute(call, "tool_call.function.name") ?? "unknown",
        arguments: args,
      });
    }
    return { role, parts };
  });
}

export function openInferenceTools(attributes: Attributes): ToolDefinition[] {
  return [...indexed(attributes, "llm.tools").values()].flatMap((tool) => {
    const schema = stringAttribute(tool, "tool.json_schema");
    const definition = schema === null ? null : toolDefinition(parseJson(schema));
    return definition === null ? [] : [definition];
  });
}
