// The Origin check, case by case: a browser write is ours only from exactly the public URL's origin (scheme, host
// and port), a listed origin, or the origin the request itself reached — never another port or scheme of a name.
import { describe, expect, it } from "vitest";
import { checkBrowserWrite, isSameOrigin } from "./browser-checks.ts";
import { AccessConfigError, readAccessSettings } from "./settings.ts";

const headers = (values: Record<string, string>) => new Headers(values);

describe("isSameOrigin", () => {
  const local = readAccessSettings({ TOOLSCOPE_PUBLIC_URL: "http://127.0.0.1:3314" });
  const https = readAccessSettings({
    TOOLSCOPE_SECRET: "x".repeat(40),
    TOOLSCOPE_PUBLIC_URL: "https://toolscope.example.test",
    TOOLSCOPE_ALLOWED_ORIGINS: "https://ops.example.test, http://10.0.0.5:8080",
  });

  it.each([
    // [origin, request Host, X-Forwarded-Proto, settings, ours?]
    ["http://127.0.0.1:3314", "127.0.0.1:3314", null, local, true],
    ["http://127.0.0.1:3317", "127.0.0.1:3314", null, local, false],
    ["https://127.0.0.1:3314", "127.0.0.1:3314", null, local, false],
    ["http://localhost:3314", "localhost:3314", null, local, true],
    ["http://localhost:3317", "localhost:3314", null, local, false],
    ["https://toolscope.example.test", "toolscope.example.test", "https", https, true],
    ["https://toolscope.example.test", "127.0.0.1:3000", null, https, true],
    ["http://toolscope.example.test", "toolscope.example.test", null, https, false],
    ["http://toolscope.example.test", "toolscope.example.test", "https", https, false],
    ["https://toolscope.example.test:8443", "toolscope.example.test:8443", "https", https, false],
    ["http://toolscope.example.test:3000", "toolscope.example.test:3000", null, https, false],
    ["https://ops.example.test", "toolscope.example.test", "https", https, true],
    ["http://ops.example.test", "toolscope.example.test", "https", https, false],
    ["http://10.0.0.5:8080", "10.0.0.5:8080", null, https, true],
    ["http://10.0.0.5:8081", "10.0.0.5:8080", null, https, false],
    ["null", "127.0.0.1:3314", null, local, false],
  ] as const)("Origin %s reaching Host %s (X-Forwarded-Proto %s)", (origin, host, proto, settings, ours) => {
    const values: Record<string, string> = { host };
    if (proto) values["x-forwarded-proto"] = proto;
    expect(isSameOrigin(origin, headers(values), settings)).toBe(ours);
  });

  it("refuses a write from another port of the public URL's host with a precise message", () => {
    expect(() =>
      checkBrowserWrite("POST", headers({ host: "127.0.0.1:3314", origin: "http://127.0.0.1:3317" }), local, {
        checkBody: false,
      }),
    ).toThrow("Cross-origin request refused: Origin http://127.0.0.1:3317 is not this Toolscope");
  });

  it("names a listed origin that is not bare scheme://host[:port]", () => {
    expect(() => readAccessSettings({ TOOLSCOPE_ALLOWED_ORIGINS: "https://ops.example.test/app" })).toThrow(
      AccessConfigError,
    );
    expect(() => readAccessSettings({ TOOLSCOPE_ALLOWED_ORIGINS: "ops.example.test" })).toThrow(
      /TOOLSCOPE_ALLOWED_ORIGINS/,
    );
  });
});
