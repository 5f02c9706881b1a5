// TOOLSCOPE_MODELS: valid targets listed without keys, every kind of bad value reported precisely.
import { describe, expect, it } from "vitest";
import { AppError } from "../http/app-error.ts";
import {
  findModelTarget,
  listModelTargets,
  maskKey,
  maskKeyStreaming,
  readApiKey,
  readModelTargets,
} from "./targets.ts";

const target = (overrides: Record<string, unknown> = {}) => ({
  name: "gpt",
  api: "openai-chat",
  baseUrl: "https://api.openai.com/v1",
  model: "gpt-4.1",
  apiKeyEnv: "OPENAI_API_KEY",
  ...overrides,
});
const env = (targets: unknown, extra: Record<string, string> = {}) => ({
  TOOLSCOPE_MODELS: JSON.stringify(targets),
  ...extra,
});

function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("model targets", () => {
  it("lists targets with the key's variable name and whether it is set, never its value", () => {
    const reply = listModelTargets(
      env(
        [
          target(),
          target({ name: "local", baseUrl: "http://127.0.0.1:11434/v1", apiKeyEnv: undefined, model: "qwen3" }),
        ],
        { OPENAI_API_KEY: "sk-secret-value" },
      ),
    );
    expect(reply).toEqual({
      problem: null,
      targets: [
        {
          name: "gpt",
          api: "openai-chat",
          baseUrl: "https://api.openai.com/v1",
          model: "gpt-4.1",
          apiKeyEnv: "OPENAI_API_KEY",
          keyState: "set",
          timeoutMs: 120_000,
          maxTokens: null,
        },
        {
          name: "local",
          api: "openai-chat",
          baseUrl: "http://127.0.0.1:11434/v1",
          model: "qwen3",
          apiKeyEnv: null,
          keyState: "not_needed",
          timeoutMs: 120_000,
          maxTokens: null,
        },
      ],
    });
    expect(JSON.stringify(reply)).not.toContain("sk-secret-value");
    expect(listModelTargets(env([target()])).targets[0]?.keyState).toBe("missing");
  });

  it("takes the default timeout from TOOLSCOPE_MODEL_TIMEOUT_MS and a target's own over it", () => {
    const { targets } = readModelTargets(
      env([target(), target({ name: "slow", timeoutMs: 600_000 })], { TOOLSCOPE_MODEL_TIMEOUT_MS: "30000" }),
    );
    expect(targets.map((t) => t.timeoutMs)).toEqual([30_000, 600_000]);
  });

  it.each([
    ["not JSON", "[{", /^TOOLSCOPE_MODELS is not JSON: /],
    ["not an array", JSON.stringify({ name: "x" }), /^TOOLSCOPE_MODELS: /],
    [
      "an unknown api",
      JSON.stringify([target(), target({ name: "b", api: "cohere" })]),
      /^TOOLSCOPE_MODELS\[1\]\.api: api must be one of openai-chat, openai-responses, anthropic, gemini$/,
    ],
    [
      "a non-http baseUrl",
      JSON.stringify([target({ baseUrl: "file:///etc/passwd" })]),
      /^TOOLSCOPE_MODELS\[0\]\.baseUrl: /,
    ],
    [
      "an unknown field (a key pasted inline)",
      JSON.stringify([target({ apiKey: "sk-inline" })]),
      /^TOOLSCOPE_MODELS\[0\]: Unrecognized key: "apiKey"$/,
    ],
    ["a duplicate name", JSON.stringify([target(), target()]), /names the target "gpt" twice/],
    [
      "a key in the baseUrl's query (Gemini's ?key=)",
      JSON.stringify([
        target({ api: "gemini", baseUrl: "https://generativelanguage.googleapis.com/v1beta?key=sk-inline" }),
      ]),
      /^TOOLSCOPE_MODELS\[0\]\.baseUrl: baseUrl must carry no user, password, query or fragment .*apiKeyEnv$/,
    ],
    [
      "credentials in the baseUrl",
      JSON.stringify([target({ baseUrl: "https://proxy:sk-inline@llm.example.com/v1" })]),
      /^TOOLSCOPE_MODELS\[0\]\.baseUrl: baseUrl must carry no user/,
    ],
    [
      "a user name alone in the baseUrl",
      JSON.stringify([target({ baseUrl: "https://sk-inline@llm.example.com/v1" })]),
      /^TOOLSCOPE_MODELS\[0\]\.baseUrl: baseUrl must carry no user/,
    ],
    [
      "a fragment in the baseUrl",
      JSON.stringify([target({ baseUrl: "https://llm.example.com/v1#sk-inline" })]),
      /^TOOLSCOPE_MODELS\[0\]\.baseUrl: baseUrl must carry no user/,
    ],
  ])("reports %s", (_label, raw, expected) => {
    const { targets, problem } = readModelTargets({ TOOLSCOPE_MODELS: raw });
    expect(targets).toEqual([]);
    expect(problem).toMatch(expected);
    expect(problem).not.toContain("sk-inline");
    expect(JSON.stringify(listModelTargets({ TOOLSCOPE_MODELS: raw }))).not.toContain("sk-inline");
  });

  it("finds a target by name, or names the configured ones", () => {
    expect(findModelTarget("gpt", env([target()])).model).toBe("gpt-4.1");
    const unknown = thrown(() => findModelTarget("claude", env([target()])));
    expect(unknown.status).toBe(422);
    expect(unknown.message).toBe('model: no target "claude" is configured (configured: "gpt")');
    expect(thrown(() => findModelTarget("gpt", { TOOLSCOPE_MODELS: "[" })).status).toBe(503);
  });

  it("reads a key only from the named variable, and says which one is missing", () => {
    const configured = findModelTarget("gpt", env([target()]));
    expect(readApiKey(configured, { OPENAI_API_KEY: "sk-1" })).toBe("sk-1");
    const missing = thrown(() => readApiKey(configured, {}));
    expect(missing.status).toBe(503);
    expect(missing.message).toBe('The key for model target "gpt" is missing: set OPENAI_API_KEY on the server');
    expect(readApiKey({ ...configured, apiKeyEnv: undefined }, {})).toBeNull();
  });

  it("masks every occurrence of a key", () => {
    expect(maskKey("bad key sk-abcdef, sk-abcdef", "sk-abcdef")).toBe("bad key [API key redacted], [API key redacted]");
    expect(maskKey("text", null)).toBe("text");
  });

  it("masks a key JSON-escaped in a provider's error body, and any run of 8+ of its characters", () => {
    const key = "sk-proj-Q7f3Zr9KxM2pL8vN4tYb6WcD1hJe5uGs0aRiTo3EyUn";
    const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    const body = `{"error":{"message":"Incorrect API key provided: ${escaped}"}}`;
    expect(maskKey(body, key)).toBe('{"error":{"message":"Incorrect API key provided: [API key redacted]"}}');
    // A call id or tool name made of the key's first 40 characters; a run from its middle.
    expect(maskKey(`call ${key.slice(0, 40)} done`, key)).toBe("call [API key redacted] done");
    expect(maskKey(`x${key.slice(20, 29)}y`, key)).toBe("x[API key redacted]y");
    // Shorter runs, and the vendor prefix every such key shares, are not the key.
    expect(maskKey(`id ${key.slice(10, 17)} and sk-proj- keys`, key)).toBe(`id ${key.slice(10, 17)} and sk-proj- keys`);
  });
});

describe("masking text that is still streaming", () => {
  const KEY = "sk-test-0123456789abcdef";
  it("holds back a tail that may be the key's beginning, and masks the whole key", () => {
    // The provider echoes the key across two stream events: between them the text ends with its first half.
    expect(maskKeyStreaming(`Your key is ${KEY.slice(0, 6)}`, KEY)).toBe("Your key is ");
    // Eight or more of its characters are masked as the key, whatever follows.
    expect(maskKeyStreaming(`Your key is ${KEY.slice(0, 12)}`, KEY)).toBe("Your key is [API key redacted]");
    expect(maskKeyStreaming(`Your key is ${KEY}.`, KEY)).toBe("Your key is [API key redacted].");
    expect(maskKeyStreaming("plain text", KEY)).toBe("plain text");
    // What streams on after a held-back tail shows it again once it is clearly not the key.
    expect(maskKeyStreaming("the tasks", KEY)).toBe("the task");
    expect(maskKeyStreaming("the tasks are done", KEY)).toBe("the tasks are done");
    expect(maskKeyStreaming(`x ${KEY.slice(0, 12)}`, null)).toBe(`x ${KEY.slice(0, 12)}`);
  });
});
