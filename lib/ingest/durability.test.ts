// Durability: a server killed with SIGKILL at random moments while callbacks stream in loses no result
// it answered 2xx. A small-scale run of the claim; the server is a real process on a real SQLite file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client.ts";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";
import { recordEvents } from "../events/service.ts";
import { sha256Hex } from "../results/hash.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";

const CALLS = 2000;
const KILLS = 4;

describe("durability under SIGKILL", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-kill-"));
  const url = `file:${path.join(dir, "kill.db")}`;
  let db: Database;
  const group = "kill-test";

  beforeAll(async () => {
    await applyMigrations(resolveDatabaseTarget(url));
    db = await openDatabase(resolveDatabaseTarget(url));
    for (let start = 0; start < CALLS; start += 1000) {
      const events = Array.from({ length: 1000 }, (_, i) => ({
        type: "tool_call",
        group_id: group,
        id: `call_${start + i}`,
        name: "work",
      }));
      expect((await recordEvents(events, { database: db })).status).toBe(207);
    }
    await db.close();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps every acknowledged result across repeated kill -9", async () => {
    const acknowledged = new Map<string, string>();
    let next = 0;
    let interrupted = 0;
    for (let round = 0; round < KILLS && next < CALLS; round++) {
      const { child, port } = await startCallbackServer(url);
      // Kill after a random number of acknowledgements in this round, so every kill lands mid-stream.
      const killAtAck = acknowledged.size + 50 + Math.floor(Math.random() * 250);
      const killed = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      const sender = async () => {
        while (next < CALLS) {
          const i = next++;
          const text = `result ${i} ${"x".repeat(200)}`;
          try {
            const response = await fetch(`http://127.0.0.1:${port}/api/callback`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ type: "tool_result", group_id: group, id: `call_${i}`, text }),
            });
            if (response.ok) acknowledged.set(`call_${i}`, sha256Hex(text));
            if (acknowledged.size >= killAtAck) child.kill("SIGKILL");
          } catch {
            return; // the server died mid-request: this one was never acknowledged
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, sender));
      if (next < CALLS) interrupted++;
      child.kill("SIGKILL");
      await killed;
    }
    // The kills must have landed mid-stream for the test to mean anything.
    expect(interrupted).toBeGreaterThanOrEqual(KILLS);
    expect(acknowledged.size).toBeGreaterThan(20);

    const reopened = await openDatabase(resolveDatabaseTarget(url));
    try {
      const stored = await reopened.client.toolResult.findMany({
        where: { toolCall: { groupId: group } },
        select: { textSha256: true, toolCall: { select: { callKey: true, status: true } } },
      });
      const byCall = new Map(stored.map((r) => [r.toolCall.callKey, r]));
      for (const [callKey, sha] of acknowledged) {
        expect(byCall.get(callKey)?.textSha256, `${callKey} was answered 200 but is missing`).toBe(sha);
        expect(byCall.get(callKey)?.toolCall.status).toBe("completed");
      }
      const audits = await reopened.client.delivery.count({ where: { groupId: group, outcome: "accepted" } });
      expect(audits).toBeGreaterThanOrEqual(acknowledged.size);
    } finally {
      await reopened.close();
    }
  });
});
