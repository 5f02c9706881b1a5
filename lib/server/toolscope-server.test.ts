// Toolscope's HTTP server in front of Next, with a stand-in for Next: what it hands over and what it answers
// itself before Next would see a request.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromWebRequest } from "../http/incoming.ts";
import { createToolscopeHttpServer, listen } from "./toolscope-server.ts";

type Seen = { url: string; forwardedFor: string | undefined };

function request(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; body: string; allow?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, allow: res.headers.allow }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Toolscope's server in front of Next", () => {
  const seen: Seen[] = [];
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    server = createToolscopeHttpServer((req, res) => {
      const forwardedFor = req.headers["x-forwarded-for"];
      seen.push({
        url: req.url ?? "",
        forwardedFor: Array.isArray(forwardedFor) ? forwardedFor.join(", ") : forwardedFor,
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    port = await listen(server, 0, "127.0.0.1");
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("hands Next the TCP peer as X-Forwarded-For, never the client's claim (sign-in limit, audit address)", async () => {
    seen.length = 0;
    // The sign-in rate limit (Better Auth) and the address audited by callbacks that reach Next's routes
    // (e.g. /api/./callback) read this header's first hop: a client rotating it got unlimited password guesses.
    expect((await request(port, "/api/auth/sign-in/email", { "x-forwarded-for": "6.6.6.6, 10.0.0.1" })).status).toBe(
      200,
    );
    expect((await request(port, "/api/./callback")).status).toBe(200);
    expect(seen.map((s) => s.forwardedFor)).toEqual(["127.0.0.1", "127.0.0.1"]);
    const web = fromWebRequest(
      new Request("http://127.0.0.1/api/callback", { headers: { "x-forwarded-for": seen[0]?.forwardedFor ?? "" } }),
    );
    expect(web.remoteAddress).toBe("127.0.0.1");
  });

  it("answers a path whose percent-escapes are not UTF-8 with a 400 JSON error, not Next's bare 500", async () => {
    seen.length = 0;
    for (const path of ["/api/threads/%ff/summary", "/api/results/%E2%82/text", "/threads/%C0%AE", "/calls/%"]) {
      const answer = await request(port, path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body), path).toMatchObject({ error: { code: "bad_request" } });
    }
    expect(seen).toEqual([]);
    // Well-formed escapes and odd query strings still reach Next.
    expect((await request(port, "/api/threads/a%2Fb%20%C3%A9/summary?q=%ff")).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(["/api/threads/a%2Fb%20%C3%A9/summary?q=%ff"]);
  });

  it("answers a method Next has no handler for (TRACE, PROPFIND) with 405 and Allow, not Next's bare 500", async () => {
    seen.length = 0;
    for (const method of ["TRACE", "PROPFIND"]) {
      for (const path of ["/api/threads", "/threads", "/api/auth/get-session"]) {
        const answer = await request(port, path, {}, method);
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "method_not_allowed" } });
        expect(answer.allow).toContain("GET");
      }
    }
    expect(seen).toEqual([]);
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
      expect((await request(port, "/api/threads", {}, method)).status, method).toBe(200);
  });

  it("answers a mis-cased API path (/API/callback) with a JSON 404 naming the path to use, never handing it to Next's pages", async () => {
    seen.length = 0;
    const cases: [path: string, method: string, use: string][] = [
      ["/API/callback", "POST", "/api/callback"],
      ["/Api/threads/Group-A/summary", "GET", "/api/threads/Group-A/summary"],
      ["/api/Callback", "POST", "/api/callback"],
      ["/V1/traces", "POST", "/v1/traces"],
    ];
    for (const [path, method, use] of cases) {
      const answer = await request(port, path, {}, method);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toEqual({
        error: {
          code: "not_found",
          message: `No endpoint at ${path}: API paths are case-sensitive; use ${use}`,
          details: { use },
        },
      });
    }
    expect(seen).toEqual([]);
    // Pages and correctly cased API paths still reach Next.
    for (const path of ["/Threads", "/api/threads/Group-A/summary", "/apis"])
      expect((await request(port, path)).status, path).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(["/Threads", "/api/threads/Group-A/summary", "/apis"]);
  });
});
