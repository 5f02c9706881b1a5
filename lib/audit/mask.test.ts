// Page masking of transformed secrets: a pattern secret written with JSON \u escapes, and any run of 8+ characters
// of a configured provider key (a tool call id or name cut from it, the key escaped) — none of its secret
// characters reach a page's DTO.
import { afterEach, describe, expect, it } from "vitest";
import { maskDto, PROVIDER_KEY_TOKEN } from "./mask.ts";

const KEY = "sk-proj-Q7f3Zr9KxM2pL8vN4tYb6WcD1hJe5uGs0aRiTo3EyUn";
const escape = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const saved = { models: process.env.TOOLSCOPE_MODELS, key: process.env.MASK_TEST_KEY };

/** Every run of 8 characters of the key's secret part (after "sk-proj-"). */
function secretRuns(): string[] {
  const secret = KEY.slice("sk-proj-".length);
  return Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
}

afterEach(() => {
  for (const [name, value] of [
    ["TOOLSCOPE_MODELS", saved.models],
    ["MASK_TEST_KEY", saved.key],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

describe("masking transformed secrets in page DTOs", () => {
  it("masks a key written with JSON \\u escapes, without a configured key", () => {
    const { value, secrets } = maskDto({ error: `{"message":"Incorrect API key provided: ${escape(KEY)}"}` });
    expect(value.error).not.toContain(escape(KEY.slice(8, 20)));
    expect(value.error).toMatch(/\[masked openai_key #[0-9a-f]{12}\]/);
    expect(secrets).toHaveLength(1);
  });

  it("masks every run of a configured provider key's characters: ids, names, escaped forms", () => {
    process.env.TOOLSCOPE_MODELS = JSON.stringify([
      {
        name: "gpt",
        api: "openai-chat",
        baseUrl: "https://api.openai.com/v1",
        model: "gpt-5",
        apiKeyEnv: "MASK_TEST_KEY",
      },
    ]);
    process.env.MASK_TEST_KEY = KEY;
    const dto = {
      callId: KEY.slice(0, 40),
      toolName: KEY.slice(12, 40),
      [KEY.slice(20, 45)]: "a key of an object",
      note: `tail ${KEY.slice(-9)} and escaped ${escape(KEY.slice(9, 30))}`,
    };
    const json = JSON.stringify(maskDto(dto).value);
    for (const run of secretRuns()) expect(json).not.toContain(run);
    expect(json).not.toContain(escape(KEY.slice(9, 17)));
    expect(json).toContain(PROVIDER_KEY_TOKEN);
    // Short runs of its characters are ordinary text.
    expect(maskDto({ word: KEY.slice(10, 16) }).value.word).toBe(KEY.slice(10, 16));
  });
});
