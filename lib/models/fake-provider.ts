// Test support: one local HTTP server that speaks all four model APIs (under /openai/v1, /anthropic/v1,
// /gemini/v1beta) from scripted answers queued per model, checks the key each API expects and the body as the
// API documents it (fake-validation.ts), and records what it was sent. Integration tests start it in-process; the e2e run starts it through scripts/fake-provider.ts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { refusalOf } from "./fake-validation.ts";
import { authErrorBody, sseText, wireEvents, type FakeAnswer } from "./fake-wire.ts";
import type { ModelApi } from "./schemas.ts";

export type { FakeAnswer, FakeToolCall } from "./fake-wire.ts";

export type ReceivedRequest = {
  api: ModelApi;
  model: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
};

export type FakeProvider = {
  url: string;
  /** baseUrl of each API, for TOOLSCOPE_MODELS. */
  baseUrls: Record<ModelApi, string>;
  /** Queues answers for `model`, served in order, one per request. */
  enqueue(model: string, ...answers: FakeAnswer[]): void;
  requests: ReceivedRequest[];
  /** Resolves when `count` requests have arrived (for hanging answers). */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
};

const ROUTES: { api: ModelApi; pattern: RegExp }[] = [
  { api: "openai-chat", pattern: /^\/openai\/v1\/chat\/completions$/ },
  { api: "openai-responses", pattern: /^\/openai\/v1\/responses$/ },
  { api: "anthropic", pattern: /^\/anthropic\/v1\/messages$/ },
  { api: "gemini", pattern: /^\/gemini\/v1beta\/models\/([^/:]+):streamGenerateContent$/ },
];

function sentKey(api: ModelApi, headers: http.IncomingHttpHeaders): string | null {
  const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;
  if (api === "anthropic") return one(headers["x-api-key"]);
  if (api === "gemini") return one(headers["x-goog-api-key"]);
  const auth = one(headers.authorization);
  return auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : null;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json" });
  response.end(text);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `key`: the key every request must carry (as each API carries it); a wrong or missing one gets the API's own
 * 401/400 body — OpenAI's quotes the key it was sent, so tests can check Toolscope masks it.
 */
// eslint-disable-next-line max-lines-per-function -- grew past the cap when Prettier wrapped it at 120 columns; split along its seams when next changed
export async function startFakeProvider(
  options: { port?: number; host?: string; key?: string | null } = {},
): Promise<FakeProvider> {
  const queues = new Map<string, FakeAnswer[]>();
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const turns = new Map<string, number>();
  const requiredKey = options.key ?? null;
  const open = new Set<http.ServerResponse>();

  const enqueue = (model: string, ...answers: FakeAnswer[]) =>
    queues.set(model, [...(queues.get(model) ?? []), ...answers]);

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://fake");
      const text = await readBody(request);
      if (url.pathname === "/__fake/answers" && request.method === "POST") {
        const body: unknown = JSON.parse(text);
        if (
          typeof body !== "object" ||
          body === null ||
          !("model" in body) ||
          typeof body.model !== "string" ||
          !("answers" in body) ||
          !Array.isArray(body.answers)
        ) {
          return sendJson(response, 400, { error: "expected {model, answers: []}" });
        }
        enqueue(body.model, ...body.answers);
        return sendJson(response, 200, { queued: queues.get(body.model)?.length ?? 0 });
      }
      if (url.pathname === "/__fake/requests" && request.method === "GET") return sendJson(response, 200, requests);
      const route = ROUTES.find((candidate) => candidate.pattern.test(url.pathname));
      if (route === undefined || request.method !== "POST")
        return sendJson(response, 404, {
          error: { message: `fake provider: no route ${request.method} ${url.pathname}` },
        });
      const body: unknown = text === "" ? null : JSON.parse(text);
      const model =
        route.api === "gemini"
          ? decodeURIComponent(route.pattern.exec(url.pathname)?.[1] ?? "")
          : typeof body === "object" && body !== null && "model" in body
            ? String(body.model)
            : "";
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(", ") : (value ?? ""),
        ]),
      );
      requests.push({ api: route.api, model, path: `${url.pathname}${url.search}`, headers, body });
      for (const waiter of waiters.filter((candidate) => requests.length >= candidate.count)) waiter.resolve();

      const key = sentKey(route.api, request.headers);
      if (requiredKey !== null && key !== requiredKey) {
        const refusal = authErrorBody(route.api, key);
        return sendJson(response, refusal.status, refusal.body);
      }
      if (route.api === "gemini" && url.searchParams.get("alt") !== "sse")
        return sendJson(response, 400, {
          error: { code: 400, message: "fake provider: only alt=sse is served", status: "INVALID_ARGUMENT" },
        });
      // A body the real API would refuse is refused here too (and consumes no scripted answer).
      const invalid = refusalOf(route.api, body);
      if (invalid !== null) return sendJson(response, invalid.status, invalid.body);
      const answer = queues.get(model)?.shift();
      if (answer === undefined)
        return sendJson(response, 400, {
          error: {
            message: `fake provider: no scripted answer left for model "${model}"`,
            type: "invalid_request_error",
          },
        });
      if (answer.error !== undefined) return sendJson(response, answer.error.status, answer.error.body);
      if (answer.hang === true) {
        open.add(response);
        response.writeHead(200, { "content-type": "text/event-stream" });
        return;
      }
      const turn = (turns.get(model) ?? 0) + 1;
      turns.set(model, turn);
      response.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      for (const event of wireEvents(route.api, answer, model, turn)) {
        if (response.destroyed) return;
        response.write(sseText(route.api, event));
        if (answer.delayMs) await sleep(answer.delayMs);
      }
      response.end();
    })().catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: { message: `fake provider failed: ${String(error)}` } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  return {
    url,
    baseUrls: {
      "openai-chat": `${url}/openai/v1`,
      "openai-responses": `${url}/openai/v1`,
      anthropic: `${url}/anthropic/v1`,
      gemini: `${url}/gemini/v1beta`,
    },
    enqueue,
    requests,
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const response of open) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
