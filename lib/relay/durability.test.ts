// kill -9 of a relaying Toolscope mid-burst, on SQLite and PostgreSQL: every result a tool was answered 200 for
// reaches the runtime after restarts (repeats allowed, with the same webhook-id), and each call's results reach it
// in the order the tool posted them. The server is a real process (scripts/serve-callbacks.ts, outbox included).
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { RuntimeStandIn } from "../testing/runtime-stand-in.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";
import { testBackends, type TestDatabase } from "../testing/test-databases.ts";

const CALLS = 24;
const RESULTS_PER_CALL = 8;
const KILLS = 3;

describe.each(testBackends())("relay under kill -9 ($provider)", (backend) => {
  let t: TestDatabase;
  const runtime = new RuntimeStandIn();
  const group = `relay-kill-${backend.provider}`;

  beforeAll(async () => {
    t = await backend.open();
    await runtime.start();
    const events = Array.from({ length: CALLS }, (_, i) => ({
      type: "tool_call",
      group_id: group,
      id: `call_${i}`,
      name: "stream",
      subscription: true,
    }));
    expect((await recordEvents(events, { database: t.database })).status).toBe(207);
    await t.database.close();
  });
  afterAll(async () => {
    await runtime.stop();
    await t?.cleanup();
  });

  it("delivers every acknowledged result, in per-call order, across repeated kill -9", async () => {
    const env = {
      TOOLSCOPE_RELAYS: JSON.stringify([{ name: "rt", url: runtime.url, mode: "store-and-forward", timeoutMs: 1000 }]),
      TOOLSCOPE_OUTBOX_LEASE_MS: "2000",
    };
    const next = Array.from({ length: CALLS }, () => 0);
    const acknowledged = new Set<string>();
    let interrupted = 0;
    let child: ChildProcess | null = null;
    for (let round = 0; round <= KILLS; round++) {
      const started = await startCallbackServer(t.url, env);
      child = started.child;
      const killAt = round < KILLS ? acknowledged.size + 20 + Math.floor(Math.random() * 40) : Number.POSITIVE_INFINITY;
      const exited = new Promise<void>((resolve) => started.child.on("exit", () => resolve()));
      // One sender per call: a call's next result is posted only once the previous one was acknowledged.
      const sendCall = async (call: number) => {
        while ((next[call] ?? 0) < RESULTS_PER_CALL) {
          const k = next[call] ?? 0;
          const text = `call_${call} result ${k}`;
          try {
            const response = await fetch(`http://127.0.0.1:${started.port}/api/relay/rt`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                type: "tool_result",
                group_id: group,
                id: `call_${call}`,
                text,
                subscription: true,
              }),
            });
            if (!response.ok) return;
            acknowledged.add(text);
            next[call] = k + 1;
            if (acknowledged.size >= killAt) started.child.kill("SIGKILL");
          } catch {
            return; // killed mid-request: not acknowledged, posted again after the restart
          }
        }
      };
      await Promise.all(Array.from({ length: CALLS }, (_, call) => sendCall(call)));
      if (round < KILLS) {
        if (next.some((n) => n < RESULTS_PER_CALL)) interrupted++;
        started.child.kill("SIGKILL");
        await exited;
      }
    }
    expect(interrupted).toBe(KILLS);
    expect(acknowledged.size).toBe(CALLS * RESULTS_PER_CALL);
    const delivered = () => new Set(runtime.uniqueMessages().map((m) => String(m.message.text)));
    await runtime.waitFor(() => [...acknowledged].every((text) => delivered().has(text)), 60_000);
    child?.kill("SIGKILL");
    // Per call, the first arrival of each result is in the order the tool posted them.
    const firstArrival = new Map<string, number[]>();
    const seen = new Set<string>();
    for (const { message } of runtime.uniqueMessages()) {
      const text = String(message.text);
      if (seen.has(text)) continue;
      seen.add(text);
      const [call, , k] = text.split(" ");
      firstArrival.set(String(call), [...(firstArrival.get(String(call)) ?? []), Number(k)]);
    }
    for (const [call, order] of firstArrival)
      expect(order, `${call} out of order`).toEqual([...order].sort((a, b) => a - b));
  }, 300_000);
});
