// Model targets (TOOLSCOPE_MODELS) and what a model's answer looks like to the rest of Toolscope: zod schemas and
// plain types. Client-safe: no key is ever part of these shapes (a target names the environment variable only).
import { z } from "zod";

export const MODEL_APIS = ["openai-chat", "openai-responses", "anthropic", "gemini"] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

export const MODEL_API_LABELS: Record<ModelApi, string> = {
  "openai-chat": "OpenAI Chat Completions (OpenAI, vLLM, llama.cpp, Ollama, …)",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini generateContent",
};

export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a URL has a place a secret could hide in: user, password, query or fragment. */
function hasUrlSecretPlace(value: string): boolean {
  if (/[?#]/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.username !== "" || url.password !== "";
  } catch {
    return false;
  }
}

export const modelTargetSchema = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._:@/-]+$/, "use letters, digits and . _ : @ / - only")
      .describe("What people pick in the fork form and pass as `model` to POST /api/threads/{groupId}/forks"),
    api: z.enum(MODEL_APIS, { error: `api must be one of ${MODEL_APIS.join(", ")}` }),
    baseUrl: z
      .url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL" })
      // A key in the URL (Gemini's ?key=, user:password@) would be shown on the settings page and in every
      // "Could not reach <url>" error a turn stores, which `read` keys can see; keys go in apiKeyEnv.
      .refine((value) => !hasUrlSecretPlace(value), {
        error:
          "baseUrl must carry no user, password, query or fragment (a key in the URL would be shown and stored with the URL): name the key's variable in apiKeyEnv",
      })
      .describe("URL prefix the API's paths hang off, version included: …/v1 (OpenAI, Anthropic), …/v1beta (Gemini)"),
    model: z.string().min(1).max(200).describe("The provider's model id, sent as is"),
    apiKeyEnv: z
      .string()
      .regex(ENV_NAME, "apiKeyEnv must name an environment variable")
      .optional()
      .describe("Environment variable holding the key; omit for servers that need none (a local Ollama)"),
    timeoutMs: z
      .number()
      .int()
      .min(1000)
      .max(3_600_000)
      .optional()
      .describe(`Whole-turn time limit; default ${DEFAULT_MODEL_TIMEOUT_MS} ms`),
    maxTokens: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe(`Output token limit; Anthropic needs one (default ${DEFAULT_ANTHROPIC_MAX_TOKENS})`),
  })
  .meta({ id: "ModelTarget" });
export type ModelTarget = z.infer<typeof modelTargetSchema>;

/** What the settings page and GET /api/models show of a target: everything but the key, and whether the key is there. */
export type ModelTargetView = {
  name: string;
  api: ModelApi;
  baseUrl: string;
  model: string;
  apiKeyEnv: string | null;
  keyState: "set" | "missing" | "not_needed";
  timeoutMs: number;
  maxTokens: number | null;
};

export const modelTargetViewSchema = z
  .object({
    name: z.string(),
    api: z.enum(MODEL_APIS),
    baseUrl: z.string(),
    model: z.string(),
    apiKeyEnv: z.string().nullable().describe("The variable's name; its value is never shown"),
    keyState: z.enum(["set", "missing", "not_needed"]),
    timeoutMs: z.number().int(),
    maxTokens: z.number().int().nullable(),
  })
  .meta({ id: "ModelTargetView" });

export const modelTargetsReplySchema = z
  .object({
    targets: z.array(modelTargetViewSchema),
    problem: z.string().nullable().describe("Why TOOLSCOPE_MODELS could not be read, if it could not"),
  })
  .meta({ id: "ModelTargets" });
export type ModelTargetsReply = z.infer<typeof modelTargetsReplySchema>;

/** Token counts as the provider reported them; null where it reported nothing. */
export type TokenUsage = {
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
  /** The provider's own usage object, verbatim. */
  raw: unknown;
};

export const EMPTY_USAGE: TokenUsage = {
  inputTokens: null,
  outputTokens: null,
  totalTokens: null,
  cachedInputTokens: null,
  reasoningTokens: null,
  raw: null,
};

/** What has streamed in so far; the page polls it while a turn runs. */
export type LiveOutput = {
  text: string;
  reasoning: string;
  calls: { id: string | null; name: string; arguments: string }[];
};

export const EMPTY_LIVE_OUTPUT: LiveOutput = { text: "", reasoning: "", calls: [] };

/** A finished answer: the vendor's non-streaming response shape (parsed by lib/formats), its usage and stop reason. */
export type ModelAnswer = {
  response: unknown;
  usage: TokenUsage;
  stopReason: string | null;
  live: LiveOutput;
};
