// Values the database indexes stay within what every backend's indexes hold. PostgreSQL refuses an index entry
// over 2,704 bytes: a call indexed by (group_id, id) of 512 CJK characters each, an envelope whose error.type is a
// paragraph, or a span whose tool call id or name is kilobytes long made every write of it fail there — a 503 the
// sender retried for ever — while SQLite stored it. The same input is now refused (422) or stored, alike on both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { AppError } from "../http/app-error.ts";
import { acceptTraceExport } from "../otel/service.ts";
import { decodedExport, receivedSpan } from "../otel/testing/received-span.ts";
import { exportThreadText } from "../traces/export-thread.ts";
import { importTranscript } from "../traces/import-transcript.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";

/** `n` CJK ideographs that do not repeat in a pattern (so no database compresses them): 3 UTF-8 bytes each. */
function ideographs(n: number, seed: number): string {
  return Array.from({ length: n }, (_, i) => String.fromCharCode(0x4e00 + ((seed * 7919 + i * 104729) % 20000))).join(
    "",
  );
}

describe.each(testBackends())("index-sized values on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("refuses an identifier over twice its character limit in UTF-8 bytes, naming it, and stores one within", async () => {
    const refused = await recordEvents(
      { type: "tool_call", group_id: ideographs(512, 1), id: ideographs(512, 2), name: "lookup" },
      { database: t.database },
    );
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("must be at most 1024 bytes in UTF-8");
    const stored = await recordEvents(
      { type: "tool_call", group_id: ideographs(340, 3), id: ideographs(340, 4), name: ideographs(170, 5) },
      { database: t.database },
    );
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    expect(await t.database.client.toolCall.count({ where: { callKey: ideographs(340, 4) } })).toBe(1);
  });

  it("stores a result whose envelope error.type is a paragraph, without it as the call's error type", async () => {
    const seed = createSeeder(t.database);
    await seed.call({ group_id: "g-long-type", id: "c1", name: "deploy" });
    const text = JSON.stringify({
      success: false,
      data: null,
      confidence: 0.2,
      source: [],
      nextAction: "retry",
      error: { type: ideographs(3000, 6), message: "boom", retryable: true },
      meta: {},
    });
    const reply = await seed.deliver({ group_id: "g-long-type", id: "c1", text });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const call = await t.database.client.toolCall.findFirstOrThrow({
      where: { groupId: "g-long-type" },
      include: { results: true },
    });
    expect(call).toMatchObject({ status: "errored", resultErrorType: null, resultIsError: true });
    expect(call.results[0]?.text).toBe(text);
  });

  it("stores a span whose tool call id and name are kilobytes long, once, under a key its id always gets", async () => {
    const longId = ideographs(3000, 7);
    const longName = ideographs(1000, 8);
    const spans = [
      receivedSpan(
        "c".repeat(32),
        "execute_tool",
        {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.conversation.id": "g-long-span",
          "gen_ai.tool.name": longName,
          "gen_ai.tool.call.id": longId,
          "gen_ai.tool.call.result": "ok",
        },
        "d".repeat(16),
      ),
    ];
    const send = () => acceptTraceExport({ decoded: decodedExport(spans), database: t.database });
    expect(await send()).toBeNull();
    expect(await send()).toBeNull();
    const calls = await t.database.client.toolCall.findMany({ where: { groupId: "g-long-span" } });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.callKey).toMatch(/^id-sha256-[0-9a-f]{32}$/);
    expect(calls[0]?.toolName.endsWith("…")).toBe(true);
    expect(longName.startsWith(calls[0]?.toolName.slice(0, -1) ?? "-")).toBe(true);
    expect(calls[0]?.status).toBe("completed");
  });

  describe("imports", () => {
    /** An Anthropic transcript whose one tool call has this id and name. */
    const anthropic = (id: string, name: string) => [
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: [{ type: "tool_use", id, name, input: { city: "Paris" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "sunny" }] },
    ];
    const refusal = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    };

    it("refuses a transcript whose tool call id or name no index can hold, or holds NUL, naming it", async () => {
      for (const [id, name, expected] of [
        [
          `toolu_${ideographs(600, 9)}`,
          "get_weather",
          /tool call's id is not a storable identifier: over 512 characters/,
        ],
        ["toolu_nul\u0000", "get_weather", /tool call's id is not a storable identifier: contains NUL/],
        ["toolu_wide", ideographs(400, 10), /tool call's name is not a storable identifier: over 1024 bytes in UTF-8/],
      ] as const) {
        const error = await refusal(() =>
          importTranscript({ value: anthropic(id, name), format: "anthropic", database: t.database }),
        );
        expect(error.code).toBe("invalid");
        expect(error.message).toMatch(expected);
      }
      const stored = await importTranscript({
        value: anthropic("toolu_ok", "get_weather"),
        format: "anthropic",
        groupId: "g-import-ok",
        database: t.database,
      });
      expect(stored.status).toBe(201);
    });

    it("refuses a Toolscope export whose integers, instants or indexed names a column cannot hold, naming the line", async () => {
      await recordEvents(
        { type: "tool_call", group_id: "g-export-src", id: "c1", name: "lookup", step: 1 },
        { database: t.database },
      );
      const exported = await exportThreadText({ groupId: "g-export-src", database: t.database });
      const lines = exported
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const edited = (kind: string, field: string, value: unknown) =>
        lines.map((line) => JSON.stringify(line.kind === kind ? { ...line, [field]: value } : line)).join("\n");
      for (const [kind, field, value, expected] of [
        ["call", "step", 2_147_483_648, /step: must be at most 2147483647/],
        ["call", "requested_at", "0000-06-01T00:00:00Z", /requested_at/],
        ["thread", "vendor", ideographs(400, 11), /vendor: must be at most 1024 bytes/],
        ["call", "call_key", ideographs(400, 12), /call_key: not a storable identifier: over 1024 bytes/],
      ] as const) {
        const error = await refusal(() =>
          importTranscript({ text: edited(kind, field, value), groupId: `g-export-${field}`, database: t.database }),
        );
        expect(error.code, `${kind}.${field}`).toBe("invalid");
        expect(error.message, `${kind}.${field}`).toMatch(expected);
      }
      // A NUL in a text column stored as it is (PostgreSQL refuses NUL) is written out, as every writer does.
      const nul = await importTranscript({
        text: edited("thread", "title", "before\u0000after"),
        groupId: "g-export-nul",
        database: t.database,
      });
      expect(nul.status).toBe(201);
      expect((await t.database.client.thread.findUniqueOrThrow({ where: { groupId: "g-export-nul" } })).title).toBe(
        "before\\u0000after",
      );
      // The export itself goes back in.
      expect((await importTranscript({ text: exported, groupId: "g-export-copy", database: t.database })).status).toBe(
        201,
      );
    });
  });
});
