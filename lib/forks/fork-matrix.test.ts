// Every source format × every model target (5 × 4 = 20 pairs) on real SQLite and PostgreSQL: a recording imported
// from SDK-typed fixtures is forked to each target through the fake provider, which refuses a body the real API
// would refuse (fake-validation.ts). Each pair's request must be accepted there, type-check against the target
// SDK's request type, and the fork's own replay in the target's encoding must pass the same checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../models/fake-provider.ts";
import { refusalOf } from "../models/fake-validation.ts";
import { MODEL_APIS, type ModelApi } from "../models/schemas.ts";
import {
  anthropicRequest,
  chatRequest,
  geminiRequest,
  mcpSession,
  responsesRequest,
} from "../replay/fixtures/vendor-requests.ts";
import { stringifyRequest } from "../replay/render-history.ts";
import { uniqueId } from "../testing/factories.ts";
import { sdkTypeErrors } from "../testing/sdk-type-check.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { importTranscript } from "../traces/import-transcript.ts";
import { getReplayTrace, renderThreadHistory } from "../traces/replay-thread.ts";
import { createForkSchema } from "./schemas.ts";
import { createFork } from "./service.ts";

const KEY = "sk-fork-matrix-key-0a1b2c3d4e5f";
const SOURCES = {
  anthropic: JSON.stringify(anthropicRequest),
  "openai-chat": JSON.stringify(chatRequest),
  "openai-responses": JSON.stringify(responsesRequest),
  gemini: JSON.stringify(geminiRequest),
  mcp: mcpSession.map((line) => JSON.stringify(line)).join("\n"),
} as const;
type Source = keyof typeof SOURCES;
const PAIRS = (Object.keys(SOURCES) as Source[]).flatMap((source) => MODEL_APIS.map((target) => ({ source, target })));

// What each target's client adds around the rendered history (lib/models/<api>.ts) — for the replay check.
function sendable(api: ModelApi, request: unknown): unknown {
  const history = typeof request === "object" && request !== null ? request : {};
  if (api === "anthropic") return { model: "m", max_tokens: 1024, ...history, stream: true };
  if (api === "gemini") return history;
  return { model: "m", ...history, stream: true };
}

describe.each(testBackends())("forks from every source format to every target on $provider", (backend) => {
  let t: TestDatabase;
  let fake: FakeProvider;
  let env: Record<string, string>;
  const originals = new Map<Source, { groupId: string; events: number }>();

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    fake = await startFakeProvider({ key: KEY });
    env = {
      TOOLSCOPE_MODELS: JSON.stringify(
        MODEL_APIS.map((api) => ({
          name: `fake-${api}`,
          api,
          baseUrl: fake.baseUrls[api],
          model: `model-${api}`,
          apiKeyEnv: "FAKE_PROVIDER_KEY",
          timeoutMs: 5000,
        })),
      ),
      FAKE_PROVIDER_KEY: KEY,
    };
    for (const [source, text] of Object.entries(SOURCES) as [Source, string][]) {
      const groupId = uniqueId(`matrix-${source}`);
      await importTranscript({ text, groupId, database: t.database });
      originals.set(source, {
        groupId,
        events: (await getReplayTrace({ groupId, database: t.database })).events.length,
      });
    }
  });
  afterAll(async () => {
    await fake.close();
    await t.cleanup();
  });

  it("sends each of the 20 source × target requests in the target's own shape, and the fork replays in it", async () => {
    const sent: { label: string; api: ModelApi; json: string }[] = [];
    const outcomes: string[] = [];
    for (const { source, target } of PAIRS) {
      const label = `${source} → ${target}`;
      fake.enqueue(`model-${target}`, { text: "Done." });
      const before = fake.requests.length;
      const created = await createFork({
        groupId: originals.get(source)?.groupId ?? "",
        input: createForkSchema.parse({ step: originals.get(source)?.events, model: `fake-${target}` }),
        database: t.database,
        env,
      }).catch((error: unknown) => ({ error }));
      if ("error" in created) {
        outcomes.push(`${label}: ${String(created.error)}`);
        continue;
      }
      const request = fake.requests[before];
      if (request !== undefined) sent.push({ label, api: target, json: stringifyRequest(request.body) });
      const turn = created.body.turn;
      if (turn?.status !== "completed") outcomes.push(`${label}: ${turn?.error?.text ?? turn?.status ?? "no turn"}`);
      const tools = request !== undefined && JSON.stringify(request.body).includes("inspect_site");
      if (!tools) outcomes.push(`${label}: the request declares no tools`);

      // The fork's replay in the target's encoding (the Copy / Download JSON of its replay page).
      const replay = await renderThreadHistory({
        groupId: created.body.group_id,
        vendor: target,
        database: t.database,
      });
      const refusal = refusalOf(target, sendable(target, replay.request));
      if (refusal !== null) outcomes.push(`${label} (fork replay): ${JSON.stringify(refusal.body)}`);
      sent.push({
        label: `${label} (fork replay)`,
        api: target,
        json: stringifyRequest(sendable(target, replay.request)),
      });
    }
    expect(outcomes).toEqual([]);
    expect(sent).toHaveLength(40);
    expect(sdkTypeErrors(sent, `fork-matrix-${backend.provider}.ts`)).toEqual([]);
  }, 240_000);
});
