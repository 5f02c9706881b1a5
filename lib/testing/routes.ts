// Route handlers called in-process, as the server would call them, on a real test database with local-mode
// access (loopback, no sign-in): for tests that go through a route's whole path without a running server.
import { afterAll, beforeAll } from "vitest";
import { readAccessSettings, resetAccessSettings } from "../access/settings.ts";
import { setDatabase } from "../db/client.ts";
import { useTestDatabase, type TestBackend, type TestDatabase } from "./test-databases.ts";

export const LOOPBACK_ORIGIN = "http://127.0.0.1";

type PostRoute = { POST: (request: Request) => Promise<Response> };

/** POSTs `body` as application/json: a value is sent as its JSON text, bytes exactly as given. */
export function postJson(route: PostRoute, path: string, body: unknown): Promise<Response> {
  const payload = body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body);
  return route.POST(
    new Request(`${LOOPBACK_ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: payload,
    }),
  );
}

/**
 * Opens a test database on `backend` for the enclosing describe block, makes it the routes' database and puts
 * access in local mode; closes both afterwards. Returns the database (available from beforeAll on).
 */
export function routeDatabase(backend: TestBackend): () => TestDatabase {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    setDatabase(t.database);
    resetAccessSettings(readAccessSettings({}));
  });
  afterAll(async () => {
    resetAccessSettings();
    await t?.cleanup();
  });
  return () => {
    if (!t) throw new Error("the route database opens in beforeAll");
    return t;
  };
}
