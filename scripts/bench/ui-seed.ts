// bench:ui seeding: threads and diff results written through the services (not HTTP) into the bench database.
import type { Database } from "../../lib/db/client.ts";
import { recordEvents } from "../../lib/events/service.ts";
import { acceptToolResult } from "../../lib/ingest/service.ts";

async function events(db: Database, batch: unknown[]): Promise<void> {
  for (let start = 0; start < batch.length; start += 1000) {
    const reply = await recordEvents(batch.slice(start, start + 1000), { database: db });
    if (reply.status !== 207 && reply.status >= 300)
      throw new Error(`seeding failed: ${JSON.stringify(reply.body).slice(0, 300)}`);
  }
}

async function results(messages: Record<string, unknown>[]): Promise<void> {
  // Submitted together, the callback writer commits them in groups, as it would under load.
  for (let start = 0; start < messages.length; start += 500) {
    const replies = await Promise.all(
      messages.slice(start, start + 500).map((message) => {
        const body = Buffer.from(JSON.stringify({ type: "tool_result", ...message }));
        return acceptToolResult({
          body,
          tooLarge: false,
          receivedBytes: body.length,
          contentType: "application/json",
          signature: { id: null, timestamp: null, signature: null },
          remoteAddress: null,
          receivedAt: new Date(),
        });
      }),
    );
    const failed = replies.find((reply) => reply.status !== 200);
    if (failed) throw new Error(`result seeding failed: ${JSON.stringify(failed.body).slice(0, 300)}`);
  }
}

export async function seedThread(db: Database, group: string, calls: number): Promise<void> {
  const batch: unknown[] = [
    { type: "message", group_id: group, role: "user", text: "Check the weather everywhere and summarise." },
  ];
  for (let i = 0; i < calls; i += 1) {
    if (i % 40 === 0)
      batch.push({ type: "reasoning", group_id: group, text: `Step ${i / 4}: fanning out four more lookups.` });
    batch.push({
      type: "tool_call",
      group_id: group,
      id: `call_${i}`,
      name: i % 3 === 0 ? "search_docs" : "get_weather",
      arguments: JSON.stringify({ city: `city-${i}`, units: "metric" }),
      step: Math.floor(i / 4),
    });
  }
  await events(db, batch);
  const answered: Record<string, unknown>[] = [];
  for (let i = 0; i < calls; i += 4) {
    answered.push({
      group_id: group,
      id: `call_${i}`,
      text: JSON.stringify({
        success: true,
        data: { temp: i % 35 },
        confidence: (i % 100) / 100,
        source: "weather_api",
        nextAction: "continue",
        error: null,
      }),
    });
  }
  await results(answered);
}

function unifiedDiff(lines: number): string {
  const body: string[] = [];
  for (let i = 0; i < lines; i += 1)
    body.push(
      i % 2 === 0
        ? `-  const value${i} = compute(${i}); // old`
        : `+  const value${i} = computeFaster(${i}, cache); // new`,
    );
  return `--- a/src/generated/table.ts\n+++ b/src/generated/table.ts\n@@ -1,${lines / 2} +1,${lines / 2} @@\n${body.join("\n")}\n`;
}

export async function seedDiffCall(db: Database, group: string, lines: number, patchText?: string): Promise<void> {
  await events(db, [
    {
      type: "tool_call",
      group_id: group,
      id: "edit",
      name: "apply_patch",
      arguments: { path: "src/generated/table.ts" },
    },
  ]);
  const patch = patchText ?? unifiedDiff(lines);
  await results([
    {
      group_id: group,
      id: "edit",
      text: patch,
      display_as: [
        { type: "diff", content: { path: "src/generated/table.ts", patch } },
        { type: "text", content: `${lines} lines changed` },
      ],
    },
  ]);
}

export async function callRowId(db: Database, group: string): Promise<number> {
  const call = await db.client.toolCall.findUniqueOrThrow({
    where: { groupId_callKey: { groupId: group, callKey: "edit" } },
    select: { id: true },
  });
  return call.id;
}

/** A diff of `hunks` hunks of `perHunk` changed lines each (half removed, half added) in one file. */
export function multiHunkDiff(hunks: number, perHunk: number): string {
  const out = ["--- a/src/generated/table.ts", "+++ b/src/generated/table.ts"];
  for (let h = 0; h < hunks; h += 1) {
    const start = h * 100 + 1;
    out.push(`@@ -${start},${perHunk / 2} +${start},${perHunk / 2} @@ function block${h}()`);
    for (let i = 0; i < perHunk; i += 1)
      out.push(
        i % 2 === 0
          ? `-  const v${h}_${i} = compute(${i}); // old`
          : `+  const v${h}_${i} = computeFaster(${i}, cache); // new`,
      );
  }
  return `${out.join("\n")}\n`;
}

/**
 * A thread shaped like an agent's work: turns of `perTurn` parallel calls, each answered before the model's next
 * message, with a user message every ten turns. Results stay near their calls, so the replay renders a window.
 */
export async function seedTurnThread(db: Database, group: string, calls: number, perTurn = 50): Promise<void> {
  await events(db, [
    { type: "message", group_id: group, role: "system", text: "You are a weather agent." },
    { type: "message", group_id: group, role: "user", text: "Check the weather everywhere, a few cities at a time." },
  ]);
  for (let turn = 0; turn * perTurn < calls; turn += 1) {
    const batch: unknown[] = [{ type: "reasoning", group_id: group, text: `Turn ${turn}: ${perTurn} more lookups.` }];
    const answered: Record<string, unknown>[] = [];
    for (let i = turn * perTurn; i < Math.min(calls, (turn + 1) * perTurn); i += 1) {
      batch.push({
        type: "tool_call",
        group_id: group,
        id: `call_${i}`,
        name: i % 3 === 0 ? "search_docs" : "get_weather",
        arguments: JSON.stringify({ city: `city-${i}`, units: "metric" }),
        step: turn,
      });
      answered.push({
        group_id: group,
        id: `call_${i}`,
        text: JSON.stringify({ success: true, data: { temp: i % 35 }, source: "weather_api" }),
      });
    }
    await events(db, batch);
    await results(answered);
    const after: unknown[] = [{ type: "output_text", group_id: group, text: `Turn ${turn} done.` }];
    if (turn % 10 === 9)
      after.push({ type: "message", group_id: group, role: "user", text: `Go on after turn ${turn}.` });
    await events(db, after);
  }
}
