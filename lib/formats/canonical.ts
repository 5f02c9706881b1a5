// The canonical trace model: the one shape every vendor adapter produces and replay/import consume.

export type FormatName = "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "mcp" | "agent-stream";

export type ToolDeclaration = {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  raw: unknown;
};

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: "unknown"; raw: unknown };

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
    };

export type ImportIssue = { path: string; message: string; raw?: unknown };

export type CanonicalTrace = {
  format: FormatName;
  declarations: ToolDeclaration[];
  events: CanonicalEvent[];
  issues: ImportIssue[];
};

export type ToolCallEvent = Extract<CanonicalEvent, { kind: "tool_call" }>;
export type ToolResultEvent = Extract<CanonicalEvent, { kind: "tool_result" }>;
export type MessageEvent = Extract<CanonicalEvent, { kind: "message" }>;
export type ReasoningEvent = Extract<CanonicalEvent, { kind: "reasoning" }>;
export type ErrorEvent = Extract<CanonicalEvent, { kind: "error" }>;
