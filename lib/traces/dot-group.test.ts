// A thread named "." or ".." could never be opened (URLs resolve those segments): every way in refuses it.
// Here the import paths (vendor transcript with ?group_id=/--group-id, a Toolscope export naming itself so)
// and OTLP (a conversation id of "." names no thread; the trace id does, with a warning).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJsonExport } from "../otel/otlp-json.ts";
import { acceptTraceExport } from "../otel/service.ts";
import { PROJECT_DIR } from "../testing/node-command.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { exportThreadText, importTranscript } from "./service.ts";

describe.each(testBackends())('group ids "." and ".." on $provider', (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("refuses them on import (422, path group_id), as a parameter and inside an export", async () => {
    const text = fs.readFileSync(
      path.join(PROJECT_DIR, "lib/formats/fixtures/anthropic-parallel-weather.json"),
      "utf8",
    );
    for (const groupId of [".", ".."]) {
      await expect(importTranscript({ text, groupId, database: t.database })).rejects.toMatchObject({
        code: "invalid",
        path: "group_id",
      });
    }
    await importTranscript({ text, groupId: "ok-thread", database: t.database });
    const exported = await exportThreadText({ groupId: "ok-thread", database: t.database });
    const renamed = exported.replace('"group_id":"ok-thread"', '"group_id":".."');
    expect(renamed).not.toEqual(exported);
    await expect(importTranscript({ text: renamed, database: t.database })).rejects.toMatchObject({
      code: "invalid",
      path: "group_id",
    });
    expect(await t.database.client.thread.count({ where: { groupId: { in: [".", ".."] } } })).toBe(0);
  });

  it('maps an OTLP conversation id of "." to the trace id, with a warning', async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const span = {
      traceId,
      spanId: "00f067aa0ba902b7",
      name: "execute_tool lookup",
      startTimeUnixNano: "1700000000000000000",
      endTimeUnixNano: "1700000000100000000",
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } },
        { key: "gen_ai.conversation.id", value: { stringValue: "." } },
        { key: "gen_ai.tool.name", value: { stringValue: "lookup" } },
        { key: "gen_ai.tool.call.id", value: { stringValue: "call-1" } },
      ],
      status: { code: 1 },
    };
    const body = Buffer.from(
      JSON.stringify({
        resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "t" }, spans: [span] }] }],
      }),
    );
    const partial = await acceptTraceExport({ decoded: decodeJsonExport(body), database: t.database });
    expect(partial?.errorMessage).toContain('"." / ".."');
    expect(await t.database.client.thread.count({ where: { groupId: "." } })).toBe(0);
    expect(await t.database.client.thread.count({ where: { groupId: traceId } })).toBe(1);
  });
});
