// One handler per endpoint: the same ingestion cases through the Next route files (what `next dev` serves)
// and through the lean Node server (what `npm start` serves for these paths) answer alike — status, error
// code, the headers that matter — on a real database.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nextCallback from "../../app/api/callback/route.ts";
import * as nextEvents from "../../app/api/events/route.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { uniqueId } from "../testing/factories.ts";
import { createToolscopeHttpServer } from "./toolscope-server.ts";

type Answer = { status: number; body: unknown; headers: Record<string, string | null> };
type Case = { method: string; path: string; contentType?: string; encoding?: string; body?: string | Buffer };

const requestHeaders = (c: Case): Record<string, string> => ({
  ...(c.contentType ? { "content-type": c.contentType } : {}),
  ...(c.encoding ? { "content-encoding": c.encoding } : {}),
});

const WATCHED_HEADERS = ["allow", "retry-after", "content-type", "cache-control"];

function pick(headers: { get(name: string): string | null }): Record<string, string | null> {
  return Object.fromEntries(WATCHED_HEADERS.map((name) => [name, headers.get(name)]));
}

async function viaNext(c: Case): Promise<Answer> {
  const routes = c.path.startsWith("/api/callback") ? nextCallback : nextEvents;
  const handler = routes[c.method as "GET" | "POST" | "PUT" | "PATCH" | "DELETE"];
  const init: RequestInit = { method: c.method, headers: requestHeaders(c) };
  if (c.body !== undefined) init.body = typeof c.body === "string" ? c.body : new Uint8Array(c.body);
  const response = await handler(new Request(`http://127.0.0.1${c.path}`, init));
  return { status: response.status, body: await response.json(), headers: pick(response.headers) };
}

function viaLean(port: number, c: Case): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { port, host: "127.0.0.1", method: c.method, path: c.path, headers: requestHeaders(c) },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(text),
            headers: pick({ get: (name) => (response.headers[name] as string | undefined) ?? null }),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(c.body);
  });
}

/** Error answers compare by code; success answers by their shape (ids differ between the two runs). */
function comparable(answer: Answer): unknown {
  const body = answer.body as {
    error?: { code: string; path?: string };
    status?: string;
    results?: { status: number }[];
  };
  const summary = body.error
    ? { error: body.error.code, path: body.error.path }
    : { status: body.status, items: body.results?.map((r) => r.status) };
  return { status: answer.status, summary, headers: answer.headers };
}

describe.each(testBackends())("ingestion endpoints in both modes on $provider", (backend) => {
  let t: TestDatabase;
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    server = createToolscopeHttpServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.cleanup();
  });

  const json = "application/json";
  const staticCases: [string, Case, number, string | undefined][] = [
    ["GET on a POST route", { method: "GET", path: "/api/callback" }, 405, "method_not_allowed"],
    ["DELETE on events", { method: "DELETE", path: "/api/events" }, 405, "method_not_allowed"],
    [
      "callback, wrong content type",
      { method: "POST", path: "/api/callback", contentType: "text/plain", body: "{}" },
      415,
      "unsupported_media_type",
    ],
    [
      "callback, malformed JSON",
      { method: "POST", path: "/api/callback", contentType: json, body: "{" },
      400,
      "malformed_json",
    ],
    [
      "callback, schema violation",
      { method: "POST", path: "/api/callback", contentType: json, body: '{"type":"tool_result"}' },
      422,
      "invalid",
    ],
    [
      "events, wrong content type",
      { method: "POST", path: "/api/events", contentType: "text/plain", body: "{}" },
      415,
      "unsupported_media_type",
    ],
    [
      "events, malformed JSON",
      { method: "POST", path: "/api/events", contentType: json, body: "[" },
      400,
      "malformed_json",
    ],
    // Only OTLP decodes gzip: elsewhere an encoded body is refused by its encoding, not judged as text.
    [
      "callback, gzip-encoded",
      {
        method: "POST",
        path: "/api/callback",
        contentType: json,
        encoding: "gzip",
        body: gzipSync('{"type":"tool_result","group_id":"g","id":"c","text":"t"}'),
      },
      415,
      "unsupported_media_type",
    ],
    [
      "events, gzip-encoded",
      {
        method: "POST",
        path: "/api/events",
        contentType: json,
        encoding: "gzip",
        body: gzipSync('{"type":"tool_call","group_id":"g","id":"c","name":"n"}'),
      },
      415,
      "unsupported_media_type",
    ],
    ["events, empty batch", { method: "POST", path: "/api/events", contentType: json, body: "[]" }, 422, "invalid"],
    // No URL reaches a thread named "." or "..": refused at every way in.
    [
      "events, group_id '.'",
      {
        method: "POST",
        path: "/api/events",
        contentType: json,
        body: '{"type":"tool_call","group_id":".","id":"c","name":"n"}',
      },
      422,
      "invalid",
    ],
    [
      "events, group_id '..'",
      {
        method: "POST",
        path: "/api/events",
        contentType: json,
        body: '{"type":"output_text","group_id":"..","text":"t"}',
      },
      422,
      "invalid",
    ],
    [
      "callback, group_id '..'",
      {
        method: "POST",
        path: "/api/callback",
        contentType: json,
        body: '{"type":"tool_result","group_id":"..","id":"c","text":"t"}',
      },
      422,
      "invalid",
    ],
  ];

  it.each(staticCases)("%s answers alike", async (_name, c, status, code) => {
    const [next, lean] = await Promise.all([viaNext(c), viaLean(port, c)]);
    expect(next.status).toBe(status);
    expect((next.body as { error?: { code: string } }).error?.code).toBe(code);
    expect(comparable(lean)).toEqual(comparable(next));
    if (status === 405) expect(next.headers.allow).toBe("POST");
  });

  it("a trailing slash reaches the same endpoint, never a redirect", async () => {
    const c = { method: "POST", path: "/api/callback/", contentType: json, body: "{" };
    const lean = await viaLean(port, c);
    expect(lean.status).toBe(400);
  });

  it("register, accept, duplicate, conflict and unknown call answer alike", async () => {
    const run = async (send: (c: Case) => Promise<Answer>) => {
      const group = uniqueId("modes");
      const post = (path: string, body: unknown) =>
        send({ method: "POST", path, contentType: json, body: JSON.stringify(body) });
      const result = (text: string) => ({ type: "tool_result", group_id: group, id: "c1", text });
      return [
        await post("/api/events", { type: "tool_call", group_id: group, id: "c1", name: "deploy" }),
        await post("/api/events", [
          { type: "tool_call", group_id: group, id: "c2", name: "deploy" },
          { type: "teleport", group_id: group },
        ]),
        await post("/api/callback", result("done")),
        await post("/api/callback", result("done")),
        await post("/api/callback", result("different")),
        await post("/api/callback", { ...result("x"), id: "nobody" }),
      ].map(comparable);
    };
    const next = await run(viaNext);
    const lean = await run((c) => viaLean(port, c));
    expect(next.map((a) => (a as { status: number }).status)).toEqual([201, 207, 200, 200, 409, 404]);
    expect(lean).toEqual(next);
  });
});
