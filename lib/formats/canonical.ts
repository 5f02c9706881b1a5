// The canonical trace model: the one shape every vendor adapter produces and replay/import consume.

export type FormatName =
  "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "gemini-interactions" | "mcp" | "agent-stream";

export type ToolDeclaration = {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  // MCP Tool.title and Tool.annotations (readOnlyHint, destructiveHint, …): what the server says about itself,
  // untrusted unless the server is (mcp-tool-result-types: clients MUST treat annotations as untrusted).
  title?: string;
  annotations?: unknown;
  raw: unknown;
};

/** What kind of bytes a reference (`media_ref`) points at. */
export type MediaKind = "image" | "audio" | "document" | "video" | "file";

/**
 * Vendor fields a block had beyond what the canonical block models (Anthropic cache_control or citations, an
 * OpenAI image `detail`, MCP annotations), with the format they belong to: a replay into that same format puts
 * them back, other formats have no place for them.
 */
export type BlockExtras = { extra?: { format: FormatName; fields: Record<string, unknown> } };

export type ContentBlock = BlockExtras &
  (
    | { type: "text"; text: string }
    // Inline bytes, base64 (MCP's own shapes).
    | { type: "image"; data: string; mimeType: string }
    | { type: "audio"; data: string; mimeType: string }
    // An inline document: base64 bytes (`data`, e.g. a PDF) or plain text (`text`).
    | { type: "document"; mimeType: string; data?: string; text?: string; title?: string }
    // Bytes held elsewhere: a URL (http(s), gs://, a Gemini file URI) or a provider file id.
    | { type: "media_ref"; media: MediaKind; url?: string; fileId?: string; mimeType?: string; title?: string }
    | {
        type: "resource_link";
        uri: string;
        name?: string;
        title?: string;
        mimeType?: string;
        description?: string;
        size?: number;
      }
    | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string; title?: string } }
    // A vendor block with no canonical meaning (Anthropic search_result, Gemini executableCode, …); `format` says whose.
    | { type: "unknown"; raw: unknown; format?: FormatName }
  );

/** Direction of an MCP message: who sent it. */
export type McpDirection = "client->server" | "server->client";

// How a tool_result's isError was decided. Only Anthropic (is_error) and MCP (isError) carry a flag;
// elsewhere it is inferred from a documented convention, and audit needs to tell the two apart.
export type ErrorSignal = "vendor-flag" | "error-prefix" | "error-key";

export type CanonicalEvent =
  | {
      kind: "message";
      step: number;
      role: "system" | "user" | "assistant";
      text: string;
      // When the message had non-text parts (images, audio, files): all its parts as blocks, in order, text included.
      content?: ContentBlock[];
      raw: unknown;
      path: string;
    }
  | {
      kind: "reasoning";
      step: number;
      text: string;
      // Anthropic redacted_thinking: the text is encrypted and not readable.
      redacted?: boolean;
      raw: unknown;
      path: string;
    }
  | {
      kind: "tool_call";
      step: number;
      callId: string;
      itemId?: string;
      syntheticId: boolean;
      name: string;
      input: "json" | "text";
      argumentsText: string;
      arguments?: unknown;
      argumentsError?: string;
      raw: unknown;
      path: string;
    }
  | {
      kind: "tool_result";
      step: number;
      callId: string;
      // The tool name when the vendor encodes it on the result (Gemini functionResponse, agent stream).
      name?: string;
      text: string;
      isError: boolean;
      errorSignal?: ErrorSignal;
      content?: ContentBlock[];
      structuredContent?: unknown;
      raw: unknown;
      path: string;
    }
  | {
      kind: "error";
      step: number;
      layer: "protocol" | "runtime";
      message: string;
      callId?: string;
      raw: unknown;
      path: string;
    }
  | {
      // Protocol traffic around the tool calls (MCP initialize, progress, sampling, logging, list changes): on the
      // timeline for the people reading it, never part of what a model sees.
      kind: "protocol";
      step: number;
      method: string;
      direction?: McpDirection;
      // One line for the timeline, e.g. "progress 2/5 · Processing step 2".
      text: string;
      // The call this message belongs to (progress of a tools/call, a sampling request made while it ran).
      callId?: string;
      raw: unknown;
      path: string;
    };

export type ImportIssue = { path: string; message: string; raw?: unknown };

/**
 * What a model response said about itself besides its content (Anthropic msg_…, Responses resp_…, Chat
 * chatcmpl-…, Gemini responseId): kept as a model turn (lib/model-turns), never part of what a model is sent.
 */
export type ResponseMeta = {
  /** How many events came before the response's own output: the turn's row goes there. */
  atEvent: number;
  step: number;
  /** Whose usage object `usage` is (lib/models/usage.ts reads each). */
  api: "anthropic" | "openai-chat" | "openai-responses" | "gemini";
  model?: string;
  responseId?: string;
  stopReason?: string;
  usage?: unknown;
  path: string;
};

export type CanonicalTrace = {
  format: FormatName;
  declarations: ToolDeclaration[];
  events: CanonicalEvent[];
  issues: ImportIssue[];
  /** Response metadata of the model turns, where the transcript carried it. */
  responses?: ResponseMeta[];
};

export type ToolCallEvent = Extract<CanonicalEvent, { kind: "tool_call" }>;
export type ToolResultEvent = Extract<CanonicalEvent, { kind: "tool_result" }>;
export type MessageEvent = Extract<CanonicalEvent, { kind: "message" }>;
export type ReasoningEvent = Extract<CanonicalEvent, { kind: "reasoning" }>;
export type ErrorEvent = Extract<CanonicalEvent, { kind: "error" }>;
export type ProtocolEvent = Extract<CanonicalEvent, { kind: "protocol" }>;
