// Tests for outputSchema validation of structured content, starting from the MCP seed's weather tool.
import { describe, expect, it } from "vitest";

import { MAX_REPORTED_ERRORS, validateStructuredContent } from "./output-schema";

// seeds/mcp-tool-result-types.md — get_weather_data's outputSchema.
const WEATHER_SCHEMA = {
  type: "object",
  properties: {
    temperature: { type: "number", description: "Temperature in celsius" },
    conditions: { type: "string", description: "Weather conditions description" },
    humidity: { type: "number", description: "Humidity percentage" },
  },
  required: ["temperature", "conditions", "humidity"],
};

const WEATHER = { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 };

describe("validateStructuredContent", () => {
  it("accepts the seed's valid response", () => {
    expect(validateStructuredContent(WEATHER_SCHEMA, WEATHER, false)).toEqual({ status: "valid" });
  });

  it("reports each violation with a JSON Pointer to the offending property", () => {
    expect(validateStructuredContent(WEATHER_SCHEMA, { temperature: "22.5", conditions: "Sunny" }, false)).toEqual({
      status: "invalid",
      errors: [
        { path: "/humidity", message: "is required" },
        { path: "/temperature", message: "must be number" },
      ],
    });
  });

  it("calls a missing structuredContent invalid when a schema is declared (servers MUST provide it)", () => {
    expect(validateStructuredContent(WEATHER_SCHEMA, undefined, false)).toEqual({
      status: "invalid",
      errors: [
        {
          path: "",
          message: "no structured content: a tool that declares an outputSchema must return structured results",
        },
      ],
    });
  });

  it("skips error results and tools without a schema", () => {
    expect(validateStructuredContent(WEATHER_SCHEMA, undefined, true)).toMatchObject({ status: "skipped" });
    expect(validateStructuredContent(undefined, WEATHER, false)).toEqual({
      status: "skipped",
      reason: "the tool declared no output schema",
    });
    expect(validateStructuredContent(null, WEATHER, false)).toMatchObject({ status: "skipped" });
  });

  it("uses the 2020-12 dialect when $schema says so", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "number" }, { type: "string" }],
      items: false,
    };
    expect(validateStructuredContent(schema, [1, "a"], false)).toEqual({ status: "valid" });
    expect(validateStructuredContent(schema, ["a", 1], false)).toMatchObject({
      status: "invalid",
      errors: [
        { path: "/0", message: "must be number" },
        { path: "/1", message: "must be string" },
      ],
    });
    expect(validateStructuredContent(schema, [1, "a", true], false)).toMatchObject({ status: "invalid" });
  });

  it("defaults to draft-07 (tuple `items`) without $schema, and knows draft-06 and 2019-09", () => {
    const tuple = { type: "array", items: [{ type: "number" }] };
    expect(validateStructuredContent(tuple, ["x"], false)).toMatchObject({ status: "invalid" });
    const draft06 = { $schema: "http://json-schema.org/draft-06/schema#", type: "string", maxLength: 3 };
    expect(validateStructuredContent(draft06, "abcd", false)).toMatchObject({ status: "invalid" });
    const draft2019 = {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      properties: { a: { type: "number" } },
      unevaluatedProperties: false,
    };
    expect(validateStructuredContent(draft2019, { a: 1 }, false)).toEqual({ status: "valid" });
    expect(validateStructuredContent(draft2019, { a: 1, b: 2 }, false)).toMatchObject({ status: "invalid" });
  });

  it.each([
    ["an unknown type keyword value", { type: "nonsense" }, /type/],
    ["an unresolvable $ref", { $ref: "#/definitions/missing" }, /can't resolve reference/],
    [
      "draft-04",
      { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
      /unsupported JSON Schema dialect/,
    ],
    ["a string", "not a schema", /must be a JSON object or a boolean/],
    ["an array", [{ type: "string" }], /must be a JSON object or a boolean/],
  ])("returns schema_error for %s", (_name, schema, message) => {
    const validation = validateStructuredContent(schema, WEATHER, false);
    expect(validation.status).toBe("schema_error");
    if (validation.status !== "schema_error") return;
    expect(validation.message).toMatch(message);
  });

  it("accepts boolean schemas", () => {
    expect(validateStructuredContent(true, WEATHER, false)).toEqual({ status: "valid" });
    expect(validateStructuredContent(false, WEATHER, false)).toMatchObject({ status: "invalid" });
  });

  it("does not check `format` (no format vocabulary is installed) and ignores unknown keywords", () => {
    const schema = { type: "string", format: "date-time", "x-display": "when" };
    expect(validateStructuredContent(schema, "yesterday", false)).toEqual({ status: "valid" });
  });

  it("lets two tool versions reuse one $id", () => {
    const v1 = { $id: "https://tools.example/weather.json", type: "object", required: ["temperature"] };
    const v2 = { $id: "https://tools.example/weather.json", type: "object", required: ["celsius"] };
    expect(validateStructuredContent(v1, { temperature: 1 }, false)).toEqual({ status: "valid" });
    expect(validateStructuredContent(v2, { temperature: 1 }, false)).toMatchObject({ status: "invalid" });
    expect(validateStructuredContent(v1, { temperature: 1 }, false)).toEqual({ status: "valid" });
  });

  it("keeps working after the compiled-validator cache evicts entries", () => {
    for (let i = 0; i < 260; i += 1) {
      const schema = { $id: `https://tools.example/t${i}.json`, type: "object", properties: { n: { const: i } } };
      expect(validateStructuredContent(schema, { n: i }, false)).toEqual({ status: "valid" });
    }
    const first = { $id: "https://tools.example/t0.json", type: "object", properties: { n: { const: 0 } } };
    expect(validateStructuredContent(first, { n: 1 }, false)).toMatchObject({ status: "invalid" });
  });

  it("caps the error list", () => {
    const schema = { type: "array", items: { type: "number" } };
    const validation = validateStructuredContent(
      schema,
      Array.from({ length: 500 }, () => "x"),
      false,
    );
    if (validation.status !== "invalid") throw new Error("expected invalid");
    expect(validation.errors).toHaveLength(MAX_REPORTED_ERRORS + 1);
    expect(validation.errors.at(-1)).toEqual({ path: "", message: `…and ${500 - MAX_REPORTED_ERRORS} more errors` });
  });

  // ajv drops a "__proto__" entry of `properties` on purpose (its own prototype-pollution guard), so such a
  // property in the data is judged by additionalProperties. Nothing is polluted either way.
  it("never lets __proto__ in a schema or in data reach a prototype", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}',
    );
    expect(validateStructuredContent(schema, JSON.parse('{"__proto__": 5}'), false)).toEqual({
      status: "invalid",
      errors: [{ path: "/__proto__", message: "is not allowed by the schema" }],
    });
    const open = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    expect(validateStructuredContent(open, JSON.parse('{"__proto__": {"type": "polluted"}}'), false)).toEqual({
      status: "valid",
    });
    expect(Reflect.get({}, "type")).toBeUndefined();
  });
});
