// The replay step view read as a window around step N (replay-window.ts) is the view of the whole trace, on real
// databases: at the first step, the middle, the last, inside a parallel batch, with calls pending from long before
// the window, with results answering calls far back, in every encoding and for ?call= — and the window is what
// was read (its offset is past the start), not the whole thread. A huge turn (bench:ui's shape) is rendered in
// part, from a window whose turn facts and answered calls come from SQL: exactly the head, the calls the window's
// results answer and the window are in the request, and the view counts what it leaves out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "../db/client.ts";
import { renderHistory } from "../replay/render-history.ts";
import { renderWindowTail } from "../replay/render-window.ts";
import { pairing, partialExpectation } from "../testing/replay-requests.ts";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { getReplayStep } from "./replay-step.ts";
import { getReplayTrace } from "./replay-thread.ts";
import { readReplayWindow } from "./replay-window.ts";
import { findThread } from "./repository/threads.ts";

const TURNS = "replay-window-turns";
const STRAY = "replay-window-stray";
const FAN = "replay-window-fan";
const WIDE = "replay-window-wide";
const WIDE_CALLS = 3000;
const VENDORS = ["anthropic", "openai-chat", "openai-responses", "gemini"] as const;

async function result(group: string, id: string, text: string) {
  const body = Buffer.from(JSON.stringify({ type: "tool_result", group_id: group, id, text }));
  const reply = await acceptToolResult({
    body,
    tooLarge: false,
    receivedBytes: body.length,
    contentType: "application/json",
    signature: { id: null, timestamp: null, signature: null },
    remoteAddress: null,
    receivedAt: new Date(),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

async function events(batch: unknown[]) {
  const reply = await recordEvents(batch);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
}

/**
 * 1000 turns of three parallel calls: two answered right away (in reverse order), the third ("late") left pending
 * — in the first 30 turns every tenth turn's late call is answered 50 turns later (a window must reach back to
 * it), every 97th fails with an error event instead.
 * System prompt and user messages along the way; one declaration per tool.
 */
async function seedTurns(group: string) {
  await events([
    { type: "message", group_id: group, role: "system", text: "You are a weather agent." },
    { type: "message", group_id: group, role: "user", text: "Weather everywhere, three cities at a time." },
  ]);
  const lateAnswers = new Map<number, string[]>();
  for (let turn = 0; turn < 1000; turn += 1) {
    const calls = ["a", "b", "late"].map((suffix, k) => ({
      type: "tool_call",
      group_id: group,
      id: `${suffix}${turn}`,
      name: k === 0 ? "search_docs" : "get_weather",
      arguments: { city: `city-${turn}-${k}` },
      ...(turn === 0
        ? {
            declaration: {
              name: k === 0 ? "search_docs" : "get_weather",
              description: `tool ${k}`,
              inputSchema: { type: "object" },
            },
          }
        : {}),
    }));
    await events([{ type: "reasoning", group_id: group, text: `turn ${turn}` }, ...calls]);
    await result(group, `b${turn}`, `b result ${turn}`);
    await result(group, `a${turn}`, turn % 7 === 3 ? "Error: city not found" : `a result ${turn}`);
    if (turn % 97 === 5) await events([{ type: "error", group_id: group, id: `late${turn}`, message: "tool crashed" }]);
    else if (turn % 10 === 0 && turn < 30)
      lateAnswers.set(turn + 50, [...(lateAnswers.get(turn + 50) ?? []), `late${turn}`]);
    for (const id of lateAnswers.get(turn) ?? []) await result(group, id, `answered late: ${id}`);
    await events([
      { type: "output_text", group_id: group, text: `Turn ${turn} done.` },
      ...(turn % 5 === 4 ? [{ type: "message", group_id: group, role: "user", text: `Go on after ${turn}.` }] : []),
    ]);
  }
}

/**
 * bench:ui's shape, smaller: a system prompt and a question, one turn of 3,000 calls (reasoning every 100, a line
 * of text half way, declarations on the first calls), then results in reverse call order for four calls in five —
 * the last answers the turn's first call; c2, c7, … stay pending — then the model's closing text.
 */
async function seedWide(group: string) {
  await events([
    { type: "message", group_id: group, role: "system", text: "You are a weather agent." },
    { type: "message", group_id: group, role: "user", text: "Weather everywhere, all at once." },
  ]);
  const turn: unknown[] = [];
  for (let i = 0; i < WIDE_CALLS; i += 1) {
    const name = i % 2 === 0 ? "search_docs" : "get_weather";
    if (i % 100 === 0) turn.push({ type: "reasoning", group_id: group, text: `fanning out from ${i}` });
    if (i === WIDE_CALLS / 2) turn.push({ type: "output_text", group_id: group, text: "Half way." });
    turn.push({
      type: "tool_call",
      group_id: group,
      id: `c${i}`,
      name,
      arguments: { city: `city-${i}` },
      ...(i < 2 ? { declaration: { name, description: name, inputSchema: { type: "object" } } } : {}),
    });
  }
  for (let start = 0; start < turn.length; start += 750) await events(turn.slice(start, start + 750));
  for (let i = WIDE_CALLS - 1; i >= 0; i -= 1)
    if (i % 5 !== 2) await result(group, `c${i}`, i % 11 === 4 ? "Error: no such city" : `weather ${i}`);
  await events([{ type: "output_text", group_id: group, text: "All done." }]);
}

describe.each(testBackends())("replay step view read as a window, on $provider", (backend) => {
  let t: TestDatabase;
  let total = 0;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    await seedTurns(TURNS);
    total = (await getReplayStep({ groupId: TURNS, step: 0, read: "whole" })).total;
    // A thread with a stray error (no call) at its start: prepareHistory skips it, so no window can say so.
    await events([
      { type: "message", group_id: STRAY, role: "user", text: "go" },
      { type: "error", group_id: STRAY, message: "runtime hiccup" },
    ]);
    const calls = Array.from({ length: 3000 }, (_, i) => ({
      type: "tool_call",
      group_id: STRAY,
      id: `s${i}`,
      name: "lookup",
      arguments: { i },
    }));
    for (let start = 0; start < calls.length; start += 750) await events(calls.slice(start, start + 750));
    // bench:ui's shape: every call in one turn, then results for some: the request must be rendered whole.
    const fan = Array.from({ length: 2400 }, (_, i) => ({
      type: "tool_call",
      group_id: FAN,
      id: `f${i}`,
      name: "lookup",
      arguments: { i },
    }));
    for (let start = 0; start < fan.length; start += 800) await events(fan.slice(start, start + 800));
    for (let i = 0; i < 2400; i += 40) await result(FAN, `f${i}`, `found ${i}`);
    await seedWide(WIDE);
  }, 900_000);
  afterAll(async () => {
    await t.cleanup();
  });

  async function expectSameView(options: {
    groupId: string;
    step?: number;
    call?: string;
    vendor?: (typeof VENDORS)[number];
  }) {
    const windowed = await getReplayStep({ ...options, read: "window" });
    const whole = await getReplayStep({ ...options, read: "whole" });
    expect(windowed).toEqual(whole);
    return windowed;
  }

  it("reads a window past the start for the middle and last steps, and the window's facts are the thread's", async () => {
    expect(total).toBeGreaterThan(4000);
    const db = await getDatabase();
    const thread = await findThread(db.client, TURNS);
    if (thread === null) throw new Error("no thread");
    for (const step of [Math.floor(total / 2), total]) {
      const window = await readReplayWindow(db, thread, { step, after: 100, pendingShown: 100 });
      expect(window?.offset).toBeGreaterThan(Math.max(0, step - 3000));
      expect(window?.before.pendingTotal).toBeGreaterThan(50);
    }
  });

  it("is the whole trace's view at the first, middle and last steps and around them, in every encoding", async () => {
    const steps = [
      0,
      1,
      2,
      5,
      17,
      999,
      1000,
      1001,
      Math.floor(total / 3),
      Math.floor(total / 2),
      total - 101,
      total - 100,
      total - 1,
      total,
    ];
    for (const vendor of VENDORS) for (const step of steps) await expectSameView({ groupId: TURNS, step, vendor });
    const last = await expectSameView({ groupId: TURNS });
    expect(last.step).toBe(total);
    expect(last.history?.pendingTotal).toBeGreaterThan(400);
  }, 300_000);

  it("is the whole trace's view inside a parallel batch, right after late answers and at pending calls", async () => {
    const middle = await getReplayStep({ groupId: TURNS, step: Math.floor(total / 2), read: "whole" });
    const batch = middle.list.find((item) => item.kind === "tool_call" && item.index > middle.step);
    expect(batch).toBeDefined();
    const at = batch?.index ?? 0;
    for (const step of [at, at + 1, at + 2, at + 3]) await expectSameView({ groupId: TURNS, step });
    for (const call of ["late10", "late20", "late300", "late990", "late491", "a999", "b0", "late1", "nope"]) {
      const view = await expectSameView({ groupId: TURNS, call });
      if (call === "nope") expect(view.step).toBe(total);
    }
  }, 300_000);

  it("is the whole trace's view for one turn of every call, rendered in part past the first window", async () => {
    for (const step of [5, 1200, 2399, 2400, 2401, 2430, undefined])
      for (const vendor of VENDORS) await expectSameView({ groupId: FAN, step, vendor });
    const db = await getDatabase();
    const thread = await findThread(db.client, FAN);
    if (thread === null) throw new Error("no thread");
    expect(await readReplayWindow(db, thread, { step: 5, after: 100, pendingShown: 100 })).toMatchObject({
      offset: 0,
      total: 2460,
    });
  }, 300_000);

  it("renders the huge turn in part from a window: inside it, after it, among its results and where the last result answers its first call, in every encoding", async () => {
    const db = await getDatabase();
    const thread = await findThread(db.client, WIDE);
    if (thread === null) throw new Error("no thread");
    const trace = await getReplayTrace({ groupId: WIDE });
    const all = trace.events;
    const callAt = (id: string) => all.findIndex((event) => event.kind === "tool_call" && event.callId === id);
    const resultFor = (id: string) => all.findIndex((event) => event.kind === "tool_result" && event.callId === id);
    const steps = {
      inside: callAt("c2700") + 1,
      afterCalls: callAt(`c${WIDE_CALLS - 1}`) + 1,
      amongResults: resultFor("c1500") + 1,
      answersFirst: resultFor("c0") + 1,
      last: all.length,
    };
    expect(steps.answersFirst).toBe(all.length - 1);
    for (const [name, step] of Object.entries(steps)) {
      // Read as a window past the start, with the turn's facts from SQL; where results answer calls more than a
      // first window back (the last two steps), the window starts among the results and those calls are read apart.
      const window = await readReplayWindow(db, thread, { step, after: 100, pendingShown: 100 });
      if (window === null) throw new Error(`no window at ${name}`);
      expect(window.offset, name).toBeGreaterThan(0);
      expect(window.before.turn, name).toMatchObject({
        first: 2,
        open: name === "answersFirst" || name === "last" ? false : true,
      });
      expect((window.before.turn?.answered.length ?? 0) > 0, name).toBe(name === "answersFirst" || name === "last");
      // Each call read apart is the whole trace's event at its index, path included (`step`, the turn number, counts
      // from where a window's rows start: no view shows it).
      for (const call of window.before.turn?.answered ?? [])
        expect({ ...call.event, step: 0 }).toEqual({ ...all[call.index], step: 0 });
      // What the request holds: the head, the calls answered from the last 8 × 60 items on, those items (one per event).
      const from = step - 8 * 60;
      const expected = partialExpectation(all, step, from);
      for (const vendor of VENDORS) {
        const view = await expectSameView({ groupId: WIDE, step, vendor });
        expect(view.history?.renderedFrom, name).toBe(from);
        expect(view.history?.partialTurn, `${name} ${vendor}`).toEqual(expected.turn);
        const tail = renderWindowTail(window.events, window.offset, step, window.before, vendor, window.declarations, {
          minItems: 60,
          minChars: 100_000,
        });
        if ("needItems" in tail) throw new Error(`${name}: the window needs ${tail.needItems} items`);
        expect(tail.request, `${name} ${vendor}`).toEqual(
          renderHistory(expected.events, expected.events.length, vendor, trace.declarations).request,
        );
        const shown = pairing(tail.request, vendor);
        expect(shown.misplaced, `${name} ${vendor}`).toEqual([]);
        expect(shown.results.every((id) => shown.calls.includes(id))).toBe(true);
        expect(shown.calls).toHaveLength(expected.turn.shownCalls);
        // A pending call of the big turn (c2 is never answered) is listed, but its call left out of the request.
        expect(view.history?.pending.map((call) => call.callId)).toContain("c2");
        expect(shown.calls.includes("c2")).toBe(false);
        if (name === "answersFirst" || name === "last") {
          expect(shown.calls).toContain("c0");
          expect(shown.results.at(-1)).toBe("c0");
          expect(view.history?.pendingTotal).toBe(WIDE_CALLS / 5);
          expect(expected.turn).toMatchObject({
            calls: WIDE_CALLS,
            omittedCalls: WIDE_CALLS - (8 * 60 - (name === "last" ? 1 : 0)),
            omittedOther: 31,
          });
        }
      }
    }
  }, 600_000);

  it("falls back to the whole trace when the history before the window holds what prepareHistory skips", async () => {
    const db = await getDatabase();
    const thread = await findThread(db.client, STRAY);
    if (thread === null) throw new Error("no thread");
    expect(await readReplayWindow(db, thread, { after: 100, pendingShown: 100 })).toBeNull();
    for (const step of [1, 2, 3, 800, 2500, undefined]) await expectSameView({ groupId: STRAY, step });
  }, 120_000);
});
