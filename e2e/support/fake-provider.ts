// Where the e2e run's fake model provider listens (beside the app's port) and the key it wants; shared by
// playwright.config.ts (which starts it and configures TOOLSCOPE_MODELS) and the fork specs (which script it).
import type { FakeAnswer } from "../../lib/models/fake-wire.ts";

const appPort = Number(process.env.E2E_PORT ?? 3210);
export const FAKE_PROVIDER_PORT = Number(process.env.E2E_FAKE_PROVIDER_PORT ?? appPort + 10);
export const FAKE_PROVIDER_URL = `http://127.0.0.1:${FAKE_PROVIDER_PORT}`;
/** A made-up key: the fake refuses requests without it, and the specs check it never reaches a page. */
export const FAKE_PROVIDER_KEY = "sk-e2e-fake-provider-2b7c9e41d05f";

export const FAKE_MODEL_TARGETS = [
  {
    name: "fake-chat",
    api: "openai-chat",
    baseUrl: `${FAKE_PROVIDER_URL}/openai/v1`,
    model: "e2e-chat",
    apiKeyEnv: "E2E_FAKE_PROVIDER_KEY",
    timeoutMs: 20000,
  },
  {
    name: "fake-responses",
    api: "openai-responses",
    baseUrl: `${FAKE_PROVIDER_URL}/openai/v1`,
    model: "e2e-responses",
    apiKeyEnv: "E2E_FAKE_PROVIDER_KEY",
  },
  {
    name: "fake-claude",
    api: "anthropic",
    baseUrl: `${FAKE_PROVIDER_URL}/anthropic/v1`,
    model: "e2e-claude",
    apiKeyEnv: "E2E_FAKE_PROVIDER_KEY",
  },
  {
    name: "fake-gemini",
    api: "gemini",
    baseUrl: `${FAKE_PROVIDER_URL}/gemini/v1beta`,
    model: "e2e-gemini",
    apiKeyEnv: "E2E_FAKE_PROVIDER_KEY",
  },
  {
    name: "unkeyed",
    api: "openai-chat",
    baseUrl: `${FAKE_PROVIDER_URL}/openai/v1`,
    model: "e2e-unkeyed",
    apiKeyEnv: "E2E_KEY_THAT_IS_NOT_SET",
  },
];

/** Queues scripted answers for a model at the fake provider (its control route). */
export async function enqueueAnswers(model: string, answers: FakeAnswer[]): Promise<void> {
  const response = await fetch(`${FAKE_PROVIDER_URL}/__fake/answers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, answers }),
  });
  if (!response.ok)
    throw new Error(`the fake provider refused the script: ${response.status} ${await response.text()}`);
}
