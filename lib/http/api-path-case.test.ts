import { describe, expect, it } from "vitest";
import { intendedApiPath, miscasedApiPathError } from "./api-path-case.ts";

const lean = (path: string) => ["/api/callback", "/api/events", "/v1/traces", "/api/health"].includes(path);

describe("intendedApiPath", () => {
  it("names the lower-case path for a mis-cased API prefix; ids after it keep their case", () => {
    expect(intendedApiPath("/API/callback")).toBe("/api/callback");
    expect(intendedApiPath("/Api/threads/Group-A/summary")).toBe("/api/threads/Group-A/summary");
    expect(intendedApiPath("/V1/traces")).toBe("/v1/traces");
    expect(intendedApiPath("/API")).toBe("/api");
  });

  it("names a known endpoint when the whole path differs from it only in case", () => {
    expect(intendedApiPath("/API/CALLBACK", lean)).toBe("/api/callback");
    expect(intendedApiPath("/api/Callback", lean)).toBe("/api/callback");
    expect(intendedApiPath("/API/Threads/x", lean)).toBe("/api/Threads/x");
  });

  it("leaves correct API paths, pages and look-alikes alone", () => {
    expect(intendedApiPath("/api/callback", lean)).toBeNull();
    expect(intendedApiPath("/api/threads/Group-A")).toBeNull();
    expect(intendedApiPath("/Threads")).toBeNull();
    expect(intendedApiPath("/apis/x")).toBeNull();
    expect(intendedApiPath("/")).toBeNull();
    expect(intendedApiPath("/settings/API")).toBeNull();
  });
});

describe("miscasedApiPathError", () => {
  it("is a 404 in the one error shape, naming the path to use", () => {
    const error = miscasedApiPathError("/API/callback", "/api/callback");
    expect(error.status).toBe(404);
    expect(error.toBody()).toEqual({
      error: {
        code: "not_found",
        message: "No endpoint at /API/callback: API paths are case-sensitive; use /api/callback",
        details: { use: "/api/callback" },
      },
    });
  });
});
