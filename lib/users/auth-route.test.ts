// /api/auth/* (Better Auth behind Toolscope's checks) on a real database: what the sign-in limit answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "../../app/api/auth/[...all]/route.ts";
import { resetAuth } from "../access/auth.ts";
import { readAccessSettings, resetAccessSettings } from "../access/settings.ts";
import { setDatabase } from "../db/client.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";

const SECRET = "auth-route-test-secret-0123456789abcdefgh";
const ORIGIN = "http://127.0.0.1";

describe.each(testBackends())("/api/auth on $provider", (backend) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    setDatabase(t.database);
    resetAccessSettings(readAccessSettings({ TOOLSCOPE_SECRET: SECRET }));
    resetAuth();
  });
  afterAll(async () => {
    resetAccessSettings();
    resetAuth();
    await t.cleanup();
  });

  it("the sign-in limit's 429 carries Retry-After, like every 429 and 503 of Toolscope", async () => {
    // Toolscope's server sets X-Forwarded-For to the TCP peer (toolscope-server.ts); one address per backend,
    // since Better Auth's limiter lives in process memory.
    const peer = backend.provider === "sqlite" ? "198.51.100.7" : "198.51.100.8";
    const attempt = () =>
      authRoute.POST(
        new Request(`${ORIGIN}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": peer },
          body: JSON.stringify({ email: "nobody@example.com", password: "not the password" }),
        }),
      );
    const first = await attempt();
    expect(first.status).toBe(401);
    // Toolscope's one error shape, Better Auth's own code kept as the reason.
    expect(await first.json()).toEqual({
      error: {
        code: "unauthorized",
        message: "Invalid email or password",
        details: { reason: "INVALID_EMAIL_OR_PASSWORD" },
      },
    });
    for (let i = 1; i < 10; i++) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: "rate_limited" } });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
      `Retry-After: ${limited.headers.get("retry-after")}`,
    ).toBe(true);
  });
});
