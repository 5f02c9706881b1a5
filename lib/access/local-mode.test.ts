// Local mode (no TOOLSCOPE_SECRET): loopback only and no credential, yet browser attacks still fail — on a real
// server process and through the Next routes, on SQLite and PostgreSQL. Plus the settings' pure rules.
import { spawnSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/import/route.ts";
import * as keysRoute from "../../app/api/keys/route.ts";
import { uniqueId } from "../testing/factories.ts";
import { nodeScriptArgs } from "../testing/node-command.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";
import { testBackends, type TestDatabase } from "../testing/test-databases.ts";
import { openDatabase, setDatabase, type Database } from "../db/client.ts";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { isAllowedHost, readAccessSettings, refuseToBind, resetAccessSettings } from "./settings.ts";

describe("access settings", () => {
  it("local mode listens on loopback only and names the ways forward otherwise", () => {
    const local = readAccessSettings({});
    expect(local.mode).toBe("local");
    for (const host of ["127.0.0.1", "::1", "localhost", "127.0.0.2"]) expect(refuseToBind(host, local)).toBeNull();
    for (const host of ["0.0.0.0", "::", "192.168.1.20"]) {
      const message = refuseToBind(host, local) ?? "";
      expect(message).toContain(`Refusing to listen on ${host}`);
      expect(message).toContain("TOOLSCOPE_SECRET");
      expect(message).toContain("HOST=127.0.0.1");
    }
    expect(refuseToBind("0.0.0.0", readAccessSettings({ TOOLSCOPE_SECRET: "x".repeat(32) }))).toBeNull();
    expect(() => readAccessSettings({ TOOLSCOPE_SECRET: "too-short" })).toThrow(/at least 32/);
  });

  it("the Host allowlist: loopback names, IP literals and configured names only", () => {
    const settings = readAccessSettings({
      TOOLSCOPE_PUBLIC_URL: "https://scope.example.com",
      TOOLSCOPE_ALLOWED_HOSTS: "tools.internal, other.example:8443",
    });
    for (const host of [
      "127.0.0.1:3000",
      "localhost:3000",
      "[::1]:3000",
      "app.localhost",
      "10.0.0.5:3000",
      "scope.example.com",
      "SCOPE.example.com.",
      "tools.internal:3000",
      "other.example",
    ]) {
      expect(isAllowedHost(host, settings), host).toBe(true);
    }
    for (const host of [
      "attacker.example",
      "attacker.example:3000",
      "scope.example.com.attacker.example",
      "localhost.attacker.example",
      "",
      "bad host",
    ]) {
      expect(isAllowedHost(host, settings), host).toBe(false);
    }
    expect(isAllowedHost(null, settings)).toBe(false);
  });
});

it("npm start refuses HOST=0.0.0.0 without TOOLSCOPE_SECRET, and a short secret", () => {
  const env = { ...process.env, TOOLSCOPE_SECRET: "", PORT: "0", DATABASE_URL: "file:/nonexistent/never-opened.db" };
  const open = spawnSync(process.execPath, nodeScriptArgs("scripts/start.ts"), {
    env: { ...env, HOST: "0.0.0.0" },
    encoding: "utf8",
  });
  expect(open.status).toBe(1);
  expect(open.stderr).toContain("Refusing to listen on 0.0.0.0");
  expect(open.stderr).toContain("Ways forward");
  const short = spawnSync(process.execPath, nodeScriptArgs("scripts/start.ts"), {
    env: { ...env, TOOLSCOPE_SECRET: "short" },
    encoding: "utf8",
  });
  expect(short.status).toBe(1);
  expect(short.stderr).toContain("at least 32 characters");
});

/** An OpenAI Chat transcript with one tool call and its result. */
const TRANSCRIPT = JSON.stringify({
  messages: [
    { role: "user", content: "Weather in Oslo?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"location":"Oslo"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "4 °C, rain" },
  ],
});

function send(port: number, options: { path: string; headers: Record<string, string>; body: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, method: "POST", path: options.path, headers: options.headers },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

describe.each(testBackends())("local mode on $provider", (backend) => {
  let t: TestDatabase;
  let database: Database;
  let child: ChildProcess;
  let port = 0;

  beforeAll(async () => {
    t = await backend.open();
    // The server migrates on start; on SQLite that needs no other connection open (as in durability.test.ts).
    await t.database.close();
    const server = await startCallbackServer(t.url, { TOOLSCOPE_SECRET: "" });
    child = server.child;
    port = server.port;
    database = await openDatabase(resolveDatabaseTarget(t.url));
    setDatabase(database);
    resetAccessSettings(readAccessSettings({}));
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    resetAccessSettings();
    await database.close();
    await t.cleanup();
  });

  const event = (group: string) => JSON.stringify({ type: "tool_call", group_id: group, id: "c1", name: "search" });
  const groupsLike = async (prefix: string) =>
    (await database.client.thread.findMany({ where: { groupId: { startsWith: prefix } }, select: { groupId: true } }))
      .map((row) => row.groupId)
      .sort();

  it("tools post as before (no credential) while rebinding and cross-origin writes create nothing", async () => {
    const group = uniqueId("local");
    const json = { "content-type": "application/json" };
    expect(
      await send(port, {
        path: "/api/events",
        headers: { ...json, host: "attacker.example" },
        body: event(`${group}-rebind`),
      }),
    ).toBe(403);
    expect(
      await send(port, {
        path: "/api/events",
        headers: { ...json, origin: "http://evil.example" },
        body: event(`${group}-origin`),
      }),
    ).toBe(403);
    expect(
      await send(port, {
        path: "/api/events",
        headers: { ...json, "sec-fetch-site": "cross-site" },
        body: event(`${group}-site`),
      }),
    ).toBe(403);
    expect(
      await send(port, {
        path: "/api/events",
        headers: { "content-type": "text/plain" },
        body: event(`${group}-plain`),
      }),
    ).toBe(415);
    expect(await send(port, { path: "/api/callback", headers: { ...json, origin: "null" }, body: "{}" })).toBe(403);
    expect(await send(port, { path: "/api/events", headers: json, body: event(group) })).toBe(201);
    expect(
      await send(port, {
        path: "/api/events",
        headers: { ...json, origin: `http://127.0.0.1:${port}` },
        body: event(`${group}-same`),
      }),
    ).toBe(201);
    expect(await groupsLike(group)).toEqual([group, `${group}-same`]);
  });

  it("/api/import refuses text/plain and foreign origins; JSON from the page or a tool is imported", async () => {
    const group = uniqueId("import");
    const upload = (headers: Record<string, string>, suffix: string) =>
      importRoute.POST(
        new Request(`http://127.0.0.1/api/import?group_id=${group}-${suffix}`, {
          method: "POST",
          headers,
          body: TRANSCRIPT,
        }),
      );
    expect((await upload({ "content-type": "text/plain" }, "plain")).status).toBe(415);
    expect((await upload({ "content-type": "text/plain; charset=utf-8" }, "plain2")).status).toBe(415);
    expect((await upload({ "content-type": "multipart/form-data; boundary=x" }, "multipart")).status).toBe(415);
    expect(
      (await upload({ "content-type": "application/x-ndjson", origin: "http://evil.example" }, "origin")).status,
    ).toBe(403);
    expect(
      (await upload({ "content-type": "application/x-ndjson", "sec-fetch-site": "cross-site" }, "site")).status,
    ).toBe(403);
    const accepted = await upload({ "content-type": "application/json", origin: "http://127.0.0.1" }, "ok");
    expect(accepted.status, await accepted.clone().text()).toBe(201);
    expect(await groupsLike(group)).toEqual([`${group}-ok`]);
    const key = (headers: Record<string, string>) =>
      keysRoute.POST(
        new Request("http://127.0.0.1/api/keys", {
          method: "POST",
          headers,
          body: JSON.stringify({ name: "k", scope: "admin" }),
        }),
      );
    expect((await key({ "content-type": "text/plain" })).status).toBe(415);
    expect((await key({ "content-type": "application/json" })).status).toBe(201);
  });
});
