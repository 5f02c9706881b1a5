// Reads the three span conventions Toolscope understands — OpenTelemetry GenAI semantic conventions, the
// Vercel AI SDK's `ai.*` spans, OpenInference — into two neutral views: a model call (chat: input and output
// messages, system instructions, tool definitions, usage) and a tool execution. Pure and client-safe.
import type { AttributeValue, Attributes, OtelSpan } from "./otlp-types.ts";
import { STATUS_ERROR } from "./otlp-types.ts";
import {
  asText,
  definitions,
  genAiMessages,
  jsonAttribute,
  openInferenceMessages,
  openInferenceTools,
  stringAttribute,
  systemText,
  usageOf,
  vercelMessages,
  vercelOutput,
  vercelPrompt,
  vercelSystem,
  type Message,
  type ToolDefinition,
  type Usage,
} from "./span-messages.ts";

export {
  asText,
  stringAttribute,
  type Message,
  type MessagePart,
  type ToolDefinition,
  type Usage,
} from "./span-messages.ts";

export type Convention = "gen_ai" | "vercel_ai" | "openinference";

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

function errorOf(span: OtelSpan): { message: string; type: string | null } | null {
  const exception = span.events.find((event) => event.name === "exception");
  const errorType = stringAttribute(span.attributes, "error.type");
  if (span.status.code !== STATUS_ERROR && exception === undefined && errorType === null) return null;
  const message =
    (exception && stringAttribute(exception.attributes, "exception.message")) ??
    span.status.message ??
    errorType ??
    "the span ended with an error status";
  const type = (exception && stringAttribute(exception.attributes, "exception.type")) ?? errorType;
  return { message, type };
}

// ─── classification ─────────────────────────────────────────────────────────────────────────────

const CHAT_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);
const VERCEL_CHAT_OPERATIONS = new Set([
  "ai.generateText.doGenerate",
  "ai.streamText.doStream",
  "ai.generateObject.doGenerate",
  "ai.streamObject.doStream",
]);

function operation(span: OtelSpan): string | null {
  return stringAttribute(span.attributes, "gen_ai.operation.name");
}

function vercelOperation(span: OtelSpan): string {
  return stringAttribute(span.attributes, "ai.operationId") ?? span.name;
}

/** Whether a span is a tool execution (what toolView reads), without building the view. */
export function isToolSpan(span: OtelSpan): boolean {
  const attributes = span.attributes;
  return (
    operation(span) === "execute_tool" ||
    vercelOperation(span) === "ai.toolCall" ||
    stringAttribute(attributes, "openinference.span.kind") === "TOOL"
  );
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
  const hasGenAiMessages =
    attributes["gen_ai.input.messages"] !== undefined || attributes["gen_ai.output.messages"] !== undefined;
  // A chat span with no message attributes (content capture off) is still a model call: its model, tokens and
  // duration are a model turn.
  const chatOperation = op !== null && CHAT_OPERATIONS.has(op);
  if ((hasGenAiMessages && (op === null || chatOperation || (containers && op === "invoke_agent"))) || chatOperation) {
    return {
      span,
      convention: "gen_ai",
      system: systemText(jsonAttribute(attributes, "gen_ai.system_instructions")),
      input: genAiMessages(jsonAttribute(attributes, "gen_ai.input.messages")),
      output: genAiMessages(jsonAttribute(attributes, "gen_ai.output.messages")),
      tools: definitions(jsonAttribute(attributes, "gen_ai.tool.definitions")),
      usage: usageOf(attributes),
      model:
        stringAttribute(attributes, "gen_ai.response.model") ?? stringAttribute(attributes, "gen_ai.request.model"),
    };
  }
  const vercel = vercelOperation(span);
  if (VERCEL_CHAT_OPERATIONS.has(vercel) || (containers && /^ai\.(generate|stream)(Text|Object)$/.test(vercel))) {
    const input = vercelMessages(
      jsonAttribute(attributes, "ai.prompt.messages") ?? vercelPrompt(jsonAttribute(attributes, "ai.prompt")),
    );
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
const THREAD_KEYS = [
  "conversationId",
  "conversation_id",
  "threadId",
  "thread_id",
  "sessionId",
  "session_id",
  "chatId",
  "chat_id",
];

export type ThreadHint = { groupId: string; source: string; rank: number };

export function threadHint(span: OtelSpan): ThreadHint | null {
  const attributes = span.attributes;
  const conversation = stringAttribute(attributes, "gen_ai.conversation.id");
  if (conversation) return { groupId: conversation, source: "gen_ai.conversation.id", rank: 0 };
  // AI SDK metadata and runtime context; OpenLLMetry's association properties (the Traceloop SDK puts them on
  // every span of a withAssociationProperties({ session_id, … }) block).
  for (const prefix of ["ai.telemetry.metadata.", "ai.settings.context.", "traceloop.association.properties."]) {
    for (const key of THREAD_KEYS) {
      const value = stringAttribute(attributes, prefix + key);
      if (value) return { groupId: value, source: prefix + key, rank: 1 };
    }
  }
  const session = stringAttribute(attributes, "session.id");
  if (session) return { groupId: session, source: "session.id", rank: 2 };
  return null;
}
