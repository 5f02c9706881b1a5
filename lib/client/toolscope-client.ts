// A small typed client for runtimes (Node 18+): register calls and trace events, post tool results,
// optionally signed with a Standard Webhooks secret. Types come from the same zod schemas as the routes.
import type { EventRecorded, TraceEvent } from "../events/schemas.ts";
import { signatureHeaders } from "../ingest/webhook-signature.ts";
import type { AcceptedResult, CallbackMessage } from "../ingest/schemas.ts";
import type { ApprovalRequest, ApprovalState } from "../relay/schemas.ts";

export type ToolscopeClientOptions = {
  /** e.g. http://localhost:3000 */
  baseUrl: string;
  /** Signs callbacks (and events) when set: `whsec_…` as in TOOLSCOPE_CALLBACK_SECRET. */
  secret?: string;
  /** An ingest API key (`tsk_…`), needed when the server runs in exposed mode (TOOLSCOPE_SECRET set). */
  apiKey?: string;
  fetch?: typeof fetch;
};

export type ErrorBody = { error: { code: string; message: string; path?: string } };

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = body.error;
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string" &&
    "message" in error &&
    typeof error.message === "string"
  );
}

export class ToolscopeError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(isErrorBody(body) ? `${status} ${body.error.code}: ${body.error.message}` : `HTTP ${status}`);
    this.name = "ToolscopeError";
  }

  /** The error code of Toolscope's error body (e.g. "unknown_call"), or null for other failures. */
  get code(): string | null {
    return isErrorBody(this.body) ? this.body.error.code : null;
  }
}

type ToolCallInput = Omit<Extract<TraceEvent, { type: "tool_call" }>, "type">;
type ToolResultInput = Omit<CallbackMessage, "type">;

export function createToolscopeClient(options: ToolscopeClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");

  async function get<T>(path: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const response = await doFetch(`${base}${path}`, { headers });
    const parsed: unknown = await response.json().catch(() => null);
    if (!response.ok) throw new ToolscopeError(response.status, parsed);
    return parsed as T;
  }

  async function post<T>(path: string, payload: unknown): Promise<{ status: number; body: T }> {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.secret) Object.assign(headers, signatureHeaders(options.secret, body));
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const response = await doFetch(`${base}${path}`, { method: "POST", headers, body });
    const parsed: unknown = await response.json().catch(() => null);
    if (!response.ok && response.status !== 207) throw new ToolscopeError(response.status, parsed);
    return { status: response.status, body: parsed as T };
  }

  return {
    /** Registers a tool invocation; identical re-registration is a no-op, different content throws 409. */
    registerCall: async (call: ToolCallInput) =>
      (await post<EventRecorded>("/api/events", { type: "tool_call", ...call })).body,
    /** Records any trace event (model output, reasoning, errors, subscription cancellation). */
    recordEvent: async (event: TraceEvent) => (await post<EventRecorded>("/api/events", event)).body,
    /** Records up to 1000 events; returns one {index, status, body} per event. */
    recordEvents: async (events: TraceEvent[]) =>
      (await post<{ results: { index: number; status: number; body: unknown }[] }>("/api/events", events)).body.results,
    /** Posts a tool result (the callback protocol's tool_result message). Throws ToolscopeError unless stored. */
    postResult: async (result: ToolResultInput) =>
      (await post<AcceptedResult>("/api/callback", { type: "tool_result", ...result })).body,
    /**
     * Asks before running a tool and waits for the decision (a person on the Approvals page, an auto-approve rule,
     * or the request's timeout): resolves with status approved (run the tool with `arguments`, which a person may
     * have edited), denied (with `reason`) or expired. Long-polls GET /api/approvals/{id}?wait=30.
     */
    requestApproval: async (request: ApprovalRequest, wait: { signal?: AbortSignal } = {}): Promise<ApprovalState> => {
      let state = (await post<ApprovalState>("/api/approvals", request)).body;
      while (state.status === "pending") {
        if (wait.signal?.aborted) throw wait.signal.reason;
        state = await get<ApprovalState>(`/api/approvals/${state.approval_id}?wait=30`);
      }
      return state;
    },
  };
}

export type ToolscopeClient = ReturnType<typeof createToolscopeClient>;
