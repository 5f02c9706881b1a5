// The OpenAPI document describes the callback message exactly as the route validates it.
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./document.ts";

describe("OpenAPI document", () => {
  const doc = buildOpenApiDocument();
  it("is OpenAPI 3.1 with the public routes", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/callback", "/api/events", "/api/health"]));
  });
  it("derives the tool_result message from the zod schema", () => {
    const message = doc.components.schemas.ToolResultMessage as {
      required: string[];
      properties: Record<string, { const?: string; type?: unknown }>;
    };
    expect(message.required).toEqual(expect.arrayContaining(["type", "group_id", "id", "text"]));
    expect(message.required).not.toContain("display_as");
    expect(message.properties.type?.const).toBe("tool_result");
    expect(Object.keys(message.properties)).toEqual([
      "type",
      "group_id",
      "id",
      "call_id",
      "text",
      "display_as",
      "subscription",
    ]);
  });
  it("lists every trace event type", () => {
    expect(JSON.stringify(doc)).not.toContain("$defs");
    const events = JSON.stringify(doc.components.schemas);
    for (const type of ["tool_call", "output_text", "message", "reasoning", "error", "subscription_cancel"])
      expect(events).toContain(`"const":"${type}"`);
  });
});

describe("OpenAPI document: in the path", () => {
  const doc = buildOpenApiDocument();
  it("documents every in-path route with the request schemas the routes validate with", () => {
    for (const path of [
      "/api/relay/{name}",
      "/api/breakpoints",
      "/api/breakpoints/{id}",
      "/api/faults",
      "/api/faults/{id}",
      "/api/held",
      "/api/held/{id}/decision",
      "/api/calls/{id}/answer",
      "/api/approvals",
      "/api/approvals/{id}",
      "/api/approvals/{id}/decision",
      "/api/approval-rules",
      "/api/outbox",
      "/api/outbox/{id}/retry",
    ])
      expect(Object.keys(doc.paths), path).toContain(path);
    const breakpoint = doc.components.schemas.BreakpointInput as { required: string[]; properties: object };
    expect(breakpoint.required).toEqual(["name"]);
    expect(Object.keys(breakpoint.properties)).toEqual(
      expect.arrayContaining(["tool", "thread", "confidence_below", "success_false", "on_timeout"]),
    );
    const approval = doc.components.schemas.ApprovalRequest as { required: string[] };
    expect(approval.required).toEqual(expect.arrayContaining(["group_id", "id", "name"]));
    expect(JSON.stringify(doc.components.schemas.HoldDecision)).toContain('"release"');
  });
});
