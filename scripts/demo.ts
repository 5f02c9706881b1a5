// npm run demo: loads realistic demo threads into a RUNNING Toolscope through its public HTTP API only
// (POST /api/events, POST /api/callback), exactly as an agent runtime and its tools would. Every run uses
// fresh group ids, so it can be run again and again. TOOLSCOPE_URL picks the server (default localhost:3000).
//
// What it loads: five vendor encodings (anthropic, openai-chat, openai-responses, gemini, mcp), parallel calls in
// one step, a multi-hunk diff with a text fallback, result envelopes at each confidence band plus a partial and
// an invalid one, MCP results with and without an outputSchema (one violating it, one isError), a subscription
// with several results that is then cancelled, an unknown-call delivery, a duplicate and a conflicting delivery,
// a call that times out and one whose result arrives late, an "Error: " result, a result with invisible/bidi
// characters and one with credential-looking strings, and calls left pending.
import { pathToFileURL } from "node:url";

import { apiClient, DemoError, runIdNow, type DemoSummary, type DemoThread } from "./demo/api.ts";
import { geminiTravel, mcpTools, opsAgent } from "./demo/tool-threads.ts";
import { anthropicWeather, openaiChatKnowledgeBase, openaiResponsesCoding } from "./demo/vendor-threads.ts";

export { DemoError, type DemoSummary, type DemoThread };

async function checkReachable(baseUrl: string): Promise<void> {
  try {
    const response = await fetch(new URL("/api/health", baseUrl), { signal: AbortSignal.timeout(5000) });
    if (!response.ok && response.status !== 503) throw new Error(`GET /api/health answered ${response.status}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DemoError(
      `Toolscope is not reachable at ${baseUrl} (${reason}).\nStart it with \`npm start\` (or \`npm run dev\`), or point TOOLSCOPE_URL at a running instance.`,
    );
  }
}

/** Loads one demo run into the Toolscope at `baseUrl`; returns what it loaded. */
export async function loadDemo(baseUrl: string, options: { runId?: string } = {}): Promise<DemoSummary> {
  await checkReachable(baseUrl);
  const runId = options.runId ?? runIdNow();
  const tally = { calls: 0, deliveries: [] as { id: string; status: number }[] };
  const api = apiClient(baseUrl, tally);
  const group = (name: string) => `demo-${runId}-${name}`;
  const threads = await Promise.all([
    anthropicWeather(api, group("weather")),
    openaiResponsesCoding(api, group("code-fix")),
    openaiChatKnowledgeBase(api, group("support-kb")),
    geminiTravel(api, group("travel")),
    mcpTools(api, group("mcp-tools")),
    opsAgent(api, group("ops-deploy")),
  ]);
  // Nobody registered this call: Toolscope answers 404, attaches it to nothing and keeps it in the audit log.
  const unknownGroupId = group("ghost");
  await api.result({ group_id: unknownGroupId, id: "call_ghost_01", text: "Result for a call nobody made" }, 404);
  return { runId, baseUrl, threads, unknownGroupId, calls: tally.calls, deliveries: tally.deliveries };
}

function printSummary(summary: DemoSummary): void {
  const byStatus = new Map<number, number>();
  for (const d of summary.deliveries) byStatus.set(d.status, (byStatus.get(d.status) ?? 0) + 1);
  const statuses = [...byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${n}× ${status}`)
    .join(", ");
  const lines = [
    `Loaded demo run ${summary.runId} into ${summary.baseUrl}: ${summary.threads.length} threads, ${summary.calls} calls, ${summary.deliveries.length} callbacks (${statuses}).`,
    "",
    ...summary.threads.map(
      (t) => `  ${t.groupId.padEnd(34)} ${t.vendor.padEnd(17)} ${String(t.calls).padStart(2)} calls  ${t.highlights}`,
    ),
    `  ${summary.unknownGroupId.padEnd(34)} ${"(no thread)".padEnd(17)}  0 calls  an unknown-call delivery (404, audited)`,
    "",
    `Open ${new URL("/", summary.baseUrl).href} · pending calls: ${new URL("/pending", summary.baseUrl).href} · audit log: ${new URL("/deliveries?outcome=unknown_call", summary.baseUrl).href}`,
  ];
  console.log(lines.join("\n"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Imported here, not at the top: e2e/demo.spec.ts imports loadDemo outside Next, where the settings module's
  // server-only guard throws.
  const { setting } = await import("../lib/config.ts");
  const baseUrl = setting("TOOLSCOPE_URL") ?? "http://localhost:3000";
  loadDemo(baseUrl)
    .then(printSummary)
    .catch((error: unknown) => {
      console.error(error instanceof DemoError ? error.message : error);
      process.exit(1);
    });
}
