// The checked-in descriptor is exactly what the vendored .proto files compile to (npm run otel:proto writes it).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { compileTraceDescriptor, PROTO_DIR, TRACE_SERVICE } from "./compile.ts";
import { TRACE_DESCRIPTOR } from "./trace-descriptor.ts";

describe("vendored OTLP trace protocol", () => {
  it("the descriptor is the compiled .proto files (run `npm run otel:proto` after changing them)", () => {
    expect(TRACE_DESCRIPTOR).toEqual(compileTraceDescriptor());
  });

  it("ships the licence and the trace service's files", () => {
    expect(fs.readFileSync(`${PROTO_DIR}/LICENSE`, "utf8")).toMatch(/Apache License\s+Version 2\.0/);
    expect(fs.readFileSync(`${PROTO_DIR}/${TRACE_SERVICE}`, "utf8")).toMatch(/service TraceService/);
  });
});
