// Secrets leave the server masked (issue 9 point 6), on SQLite and PostgreSQL: every page DTO built from a
// thread holding an Anthropic key, an AWS key id and a GitHub token carries none of them; each masked value is
// revealed by its fingerprint alone and the reveal is recorded (who, when, which row, never the value); the
// raw audit copies stay byte-exact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../access/principal.ts";
import { getCallDetail, getCallInfo, getMaskedResultText, getResultText } from "../calls/service.ts";
import { getDeliveryBody, listDeliveries } from "../deliveries/service.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { getEventText, getThreadSummary } from "../threads/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { compareThreads, exportThreadText, getReplayTraceView } from "../traces/service.ts";
import { fingerprintOf } from "./mask.ts";
import { listAccessRecords, recordAccess, revealSecret } from "./service.ts";

const ANTHROPIC = "sk-ant-api03-Zq8vN2xR7tYp4LmK9sWbC3dF6gHjQe1u";
const AWS = "AKIAIOSFODNN7EXAMPLE";
const GITHUB = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const SECRETS = [ANTHROPIC, AWS, GITHUB];
const ADA: Principal = { kind: "user", id: "u1", label: "ada@example.com" };

function expectNoSecret(value: unknown) {
  const json = JSON.stringify(value);
  for (const secret of SECRETS) expect(json).not.toContain(secret);
  // Not even a long prefix of one: the mask keeps 4 characters.
  for (const secret of SECRETS) expect(json).not.toContain(secret.slice(0, 10));
}

describe.each(testBackends())("masking and reveals on $provider", (backend) => {
  let t: TestDatabase;
  let callRowId = 0;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    await seed.call({ group_id: "leaky", id: "c1", name: "read_env", arguments: JSON.stringify({ token: GITHUB }) });
    await seed.deliver({
      group_id: "leaky",
      id: "c1",
      text: `ANTHROPIC_API_KEY=${ANTHROPIC}\nAWS_ACCESS_KEY_ID=${AWS}\n`,
    });
    await seed.call({ group_id: "leaky-2", id: "c1", name: "read_env", arguments: "{}" });
    await seed.deliver({ group_id: "leaky-2", id: "c1", text: `ANTHROPIC_API_KEY=${ANTHROPIC}` });
    const [row] = (await listDeliveries({ query: { group: "leaky" }, database: t.database })).items;
    callRowId = row?.toolCallId ?? 0;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("builds the call page's DTO with every secret masked and listed by fingerprint", async () => {
    const detail = await getCallDetail({ callRowId, database: t.database });
    expectNoSecret(detail);
    expect(detail.results[0]?.text.head).toBe(
      `ANTHROPIC_API_KEY=sk-a…[masked anthropic_key #${fingerprintOf(ANTHROPIC)}]\nAWS_ACCESS_KEY_ID=AKIA…[masked aws_access_key #${fingerprintOf(AWS)}]\n`,
    );
    expect(detail.results[0]?.flags).toMatchObject({
      secretCount: 2,
      secretKinds: ["anthropic_key", "aws_access_key"],
    });
    expect(detail.secrets.map((secret) => secret.kind).sort()).toEqual([
      "anthropic_key",
      "aws_access_key",
      "github_token",
    ]);
    expect(detail.secrets.find((secret) => secret.kind === "github_token")).toEqual({
      kind: "github_token",
      preview: "ghp_",
      fingerprint: fingerprintOf(GITHUB),
    });
    expectNoSecret(await getCallInfo({ callRowId, database: t.database }));
    const whole = await getMaskedResultText({ resultId: detail.results[0]?.id ?? 0, database: t.database });
    expectNoSecret(whole);
    expect(whole.text).toBe(detail.results[0]?.text.head);
    expect(whole.secrets.map((secret) => secret.kind)).toEqual(["anthropic_key", "aws_access_key"]);
  });

  it("masks delivery bodies, replay traces, comparisons and event texts", async () => {
    const [delivery] = (await listDeliveries({ query: { group: "leaky" }, database: t.database })).items;
    const body = await getDeliveryBody({ id: delivery?.id ?? 0, database: t.database });
    expectNoSecret(body);
    expect(body.secrets).toHaveLength(2);
    const trace = await getReplayTraceView({ groupId: "leaky", database: t.database });
    expectNoSecret(trace);
    expect(trace.secrets.map((secret) => secret.fingerprint).sort()).toEqual(SECRETS.map(fingerprintOf).sort());
    const comparison = await compareThreads({ a: "leaky", b: "leaky-2", database: t.database });
    expectNoSecret(comparison);
    expect(comparison.secrets.length).toBeGreaterThanOrEqual(2);
    expectNoSecret(await getThreadSummary({ groupId: "leaky", database: t.database }));
    const detail = await getCallDetail({ callRowId, database: t.database });
    for (const event of detail.events)
      expectNoSecret(await getEventText({ groupId: "leaky", eventId: event.id, database: t.database }));
  });

  it("reveals one value by fingerprint and records who, when and which row — never the value", async () => {
    const now = new Date("2026-06-01T10:00:00.000Z");
    const answer = await revealSecret({
      request: { fingerprint: fingerprintOf(AWS), scopes: [{ kind: "call", id: String(callRowId) }] },
      principal: ADA,
      now,
      database: t.database,
    });
    expect(answer).toMatchObject({
      value: AWS,
      kind: "aws_access_key",
      foundIn: expect.stringMatching(/^result:\d+$/),
    });
    expect(answer.record).toMatchObject({
      principal: "user:ada@example.com",
      action: "reveal",
      at: now.toISOString(),
      target: answer.foundIn,
    });
    const github = await revealSecret({
      request: { fingerprint: fingerprintOf(GITHUB), scopes: [{ kind: "thread", id: "leaky" }] },
      principal: ADA,
      database: t.database,
    });
    expect(github).toMatchObject({ value: GITHUB, foundIn: `call:${callRowId}` });
    const [delivery] = (await listDeliveries({ query: { group: "leaky" }, database: t.database })).items;
    const fromBody = await revealSecret({
      request: { fingerprint: fingerprintOf(ANTHROPIC), scopes: [{ kind: "delivery", id: String(delivery?.id) }] },
      principal: ADA,
      database: t.database,
    });
    expect(fromBody).toMatchObject({ value: ANTHROPIC, foundIn: `delivery:${delivery?.id}` });

    const log = await listAccessRecords({ database: t.database });
    expect(log.map((record) => [record.action, record.target])).toEqual([
      ["reveal", `delivery:${delivery?.id}`],
      ["reveal", `call:${callRowId}`],
      ["reveal", answer.foundIn],
    ]);
    expectNoSecret(log);
    expect(log[2]?.detail).toMatch(/^aws_access_key \[\d+,\d+\) sha256:[0-9a-f]{12} \(via call \d+\)$/);
  });

  it("answers not_found for a fingerprint outside the scope, and records nothing", async () => {
    const before = (await listAccessRecords({ database: t.database })).length;
    await expect(
      revealSecret({
        request: { fingerprint: fingerprintOf(GITHUB), scopes: [{ kind: "thread", id: "leaky-2" }] },
        principal: ADA,
        database: t.database,
      }),
    ).rejects.toMatchObject({ code: "not_found", path: "fingerprint" });
    await expect(
      revealSecret({
        request: { fingerprint: "0123456789ab", scopes: [{ kind: "call", id: "nope" }] },
        principal: ADA,
        database: t.database,
      }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    // The GitHub token is in call c1 of "leaky"'s arguments; the call of "leaky-2" does not hold it. (The call
    // scope's `id` filter was overwritten by the paging filter `id > n`, so every call's arguments were searched.)
    const [other] = (await listDeliveries({ query: { group: "leaky-2" }, database: t.database })).items;
    expect(other?.toolCallId).not.toBe(callRowId);
    await expect(
      revealSecret({
        request: { fingerprint: fingerprintOf(GITHUB), scopes: [{ kind: "call", id: String(other?.toolCallId) }] },
        principal: ADA,
        database: t.database,
      }),
    ).rejects.toMatchObject({ code: "not_found", path: "fingerprint" });
    expect(await listAccessRecords({ database: t.database })).toHaveLength(before);
  });

  it("keeps the audit copies byte-exact and records reads of them", async () => {
    const detail = await getCallDetail({ callRowId, database: t.database });
    const raw = await getResultText({ resultId: detail.results[0]?.id ?? 0, database: t.database });
    expect(new TextDecoder().decode(raw.bytes)).toBe(`ANTHROPIC_API_KEY=${ANTHROPIC}\nAWS_ACCESS_KEY_ID=${AWS}\n`);
    const exported = await exportThreadText({ groupId: "leaky", database: t.database });
    for (const secret of SECRETS) expect(exported).toContain(secret);
    await recordAccess({
      principal: { kind: "key", id: "k", label: "auditor", scope: "read" },
      action: "export",
      target: "thread:leaky",
      database: t.database,
    });
    expect((await listAccessRecords({ target: "thread:leaky", database: t.database }))[0]).toMatchObject({
      principal: "key:auditor",
      action: "export",
      detail: null,
    });
  });
});
