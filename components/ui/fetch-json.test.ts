// The one client kit against a real HTTP server: answers, the one error shape, and bodies that are not it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBytes } from "./format.ts";
import { ApiError, fetchJson, fetchText, postJson, sendJson } from "./fetch-json.ts";

let base = "";
const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    if (request.url === "/ok") response.writeHead(200, { "content-type": "application/json" }).end('{"items":[1,2]}');
    else if (request.url === "/text")
      response.writeHead(200, { "content-type": "text/plain", "x-kind": "raw" }).end("é\u0000x");
    else if (request.url === "/echo")
      response
        .writeHead(201, { "content-type": "application/json" })
        .end(JSON.stringify({ type: request.headers["content-type"], body }));
    else if (request.url === "/method")
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ method: request.method, type: request.headers["content-type"] ?? null, body }));
    else if (request.url === "/empty") response.writeHead(204).end();
    else if (request.url === "/auth")
      response
        .writeHead(401, { "content-type": "application/json" })
        .end('{"code":"INVALID","message":"Wrong password"}');
    else if (request.url === "/bad")
      response
        .writeHead(422, { "content-type": "application/json" })
        .end('{"error":{"code":"invalid_query","message":"limit must be a number","path":"limit"}}');
    else response.writeHead(502, "Bad Gateway", { "content-type": "text/html" }).end("<h1>proxy</h1>");
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("fetchJson / fetchText / postJson", () => {
  it("reads JSON and text bodies as served", async () => {
    expect(await fetchJson<{ items: number[] }>(`${base}/ok`)).toEqual({ items: [1, 2] });
    const { text, headers } = await fetchText(`${base}/text`);
    expect(text).toBe("é\u0000x");
    expect(headers.get("x-kind")).toBe("raw");
  });

  it("posts JSON, and files with their own content type", async () => {
    expect(await postJson(`${base}/echo`, { a: 1 })).toEqual({ type: "application/json", body: '{"a":1}' });
    const file = new Blob(['{"x":1}\n'], { type: "application/x-ndjson" });
    expect(await postJson(`${base}/echo`, file)).toEqual({ type: "application/x-ndjson", body: '{"x":1}\n' });
    expect(await postJson(`${base}/echo`, file, { contentType: "text/plain" })).toEqual({
      type: "text/plain",
      body: '{"x":1}\n',
    });
  });

  it("throws one ApiError carrying the server's code, message and path", async () => {
    const error = await fetchJson(`${base}/bad`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: "invalid_query",
      message: "limit must be a number",
      path: "limit",
    });
    await expect(postJson(`${base}/bad`, {})).rejects.toMatchObject({ status: 422, code: "invalid_query" });
  });

  it("sends JSON writes with any method, a body only when given, and reads an empty answer as undefined", async () => {
    expect(await sendJson("PATCH", `${base}/method`, { on: true })).toEqual({
      method: "PATCH",
      type: "application/json",
      body: '{"on":true}',
    });
    expect(await sendJson("DELETE", `${base}/method`)).toEqual({
      method: "DELETE",
      type: "application/json",
      body: "",
    });
    expect(await sendJson("POST", `${base}/empty`, {})).toBeUndefined();
    await expect(sendJson("PUT", `${base}/bad`, {})).rejects.toMatchObject({ status: 422, path: "limit" });
  });

  it("reads the auth library's flat error shape", async () => {
    await expect(sendJson("POST", `${base}/auth`, {})).rejects.toMatchObject({
      status: 401,
      code: "INVALID",
      message: "Wrong password",
    });
  });

  it("falls back to the status line when the body is not the error shape", async () => {
    await expect(fetchText(`${base}/proxy`)).rejects.toMatchObject({
      status: 502,
      code: "http_error",
      message: "502 Bad Gateway",
    });
  });
});

describe("formatBytes", () => {
  it("uses binary units everywhere", () => {
    expect([0, 812, 1024, 14_540, 5 * 1024 * 1024, 3 * 1024 ** 3].map(formatBytes)).toEqual([
      "0 B",
      "812 B",
      "1.0 KiB",
      "14.2 KiB",
      "5.0 MiB",
      "3.0 GiB",
    ]);
  });
});
