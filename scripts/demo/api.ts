// The demo's HTTP client (public API only, with a tally of what it sent), its summary types and the envelope
// helper every scenario uses.
export type DemoThread = { key: string; groupId: string; vendor: string; calls: number; highlights: string };

export type DemoSummary = {
  runId: string;
  baseUrl: string;
  threads: DemoThread[];
  /** The group id of the unknown-call delivery (no such thread exists). */
  unknownGroupId: string;
  calls: number;
  /** The HTTP status of every callback the demo sent, in order. */
  deliveries: { id: string; status: number }[];
};

export class DemoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DemoError";
  }
}

export type Json = Record<string, unknown>;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function runIdNow(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3)
    .toString(36)
    .padStart(3, "0")}`;
}

/** A tiny typed client of Toolscope's public API. */
export function apiClient(baseUrl: string, tally: { calls: number; deliveries: { id: string; status: number }[] }) {
  async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(new URL(path, baseUrl), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new DemoError(`POST ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  return {
    /** Trace events, in order, as one batch (the API answers 207 with a status per event). */
    async events(events: Json[]): Promise<void> {
      const reply = await post("/api/events", events);
      const results =
        typeof reply.body === "object" &&
        reply.body !== null &&
        "results" in reply.body &&
        Array.isArray(reply.body.results)
          ? reply.body.results
          : [];
      if (reply.status !== 207 || results.length !== events.length)
        throw new DemoError(`POST /api/events answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`);
      results.forEach((result: unknown, index) => {
        const status =
          typeof result === "object" && result !== null && "status" in result && typeof result.status === "number"
            ? result.status
            : 0;
        if (status >= 300)
          throw new DemoError(
            `event ${index} (${String(events[index]?.type)}) was rejected with ${status}: ${JSON.stringify(result).slice(0, 300)}`,
          );
      });
      tally.calls += events.filter((e) => e.type === "tool_call").length;
    },
    /** One tool_result message; `expect` is the status the protocol promises for it. */
    async result(message: Json, expect = 200): Promise<void> {
      const reply = await post("/api/callback", { type: "tool_result", ...message });
      if (reply.status !== expect)
        throw new DemoError(
          `POST /api/callback for ${String(message.id)} answered ${reply.status}, expected ${expect}: ${JSON.stringify(reply.body).slice(0, 300)}`,
        );
      tally.deliveries.push({ id: String(message.id), status: reply.status });
    },
  };
}

export type Api = ReturnType<typeof apiClient>;

export function envelope(fields: {
  confidence: number;
  nextAction: string;
  data: unknown;
  source?: unknown;
  success?: boolean;
  error?: unknown;
  toolName: string;
  durationMs: number;
  traceId: string;
  cached?: boolean;
}) {
  return JSON.stringify(
    {
      success: fields.success ?? true,
      data: fields.data,
      confidence: fields.confidence,
      source: fields.source ?? [],
      nextAction: fields.nextAction,
      error: fields.error ?? null,
      meta: {
        toolName: fields.toolName,
        toolVersion: "2026-05-06",
        traceId: fields.traceId,
        durationMs: fields.durationMs,
        cached: fields.cached ?? false,
      },
    },
    null,
    2,
  );
}
