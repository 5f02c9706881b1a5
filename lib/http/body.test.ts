// JSON bodies nested deeper than the parsers can read: valid JSON, answered as too deep (400) rather than as
// "not valid JSON: unparseable"; still-valid ones of ordinary depth read as they are.
import { describe, expect, it } from "vitest";
import { parseJsonLossless } from "../formats/lossless-json.ts";
import { AppError } from "./app-error.ts";
import { parseJsonBody, readJsonBody } from "./body.ts";
import { fromWebRequest } from "./incoming.ts";

const deep = (levels: number) => `${'{"a":['.repeat(levels)}1${"]}".repeat(levels)}`;
const bytes = (text: string) => new TextEncoder().encode(text);
const post = (text: string) =>
  fromWebRequest(
    new Request("http://toolscope.local/api/events", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    }),
  );

describe("JSON nested deeper than the parser reads", () => {
  it("says so with parseJsonBody (JSON.parse with the __proto__ reviver)", () => {
    const parsed = parseJsonBody(bytes(deep(100_000)));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.status).toBe(400);
    expect(parsed.error.message).toMatch(/^Body is JSON nested too deeply to read/);
  });

  it("leaves a custom parser's own depth message as it is (the lossless parser POST /api/events uses names its limit)", async () => {
    const error = await readJsonBody(post(deep(100_000)), { parse: parseJsonLossless, limit: 4 * 1024 * 1024 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe("Body is not valid JSON: JSON nests deeper than 512 levels");
  });

  it("still reads ordinary nesting, and still calls broken JSON invalid", async () => {
    expect(parseJsonBody(bytes(deep(50)))).toMatchObject({ ok: true });
    expect(await readJsonBody(post(deep(50)), { parse: parseJsonLossless })).toBeTypeOf("object");
    const broken = parseJsonBody(bytes('{"a": [1,'));
    expect(broken.ok ? null : broken.error.message).toMatch(/^Body is not valid JSON: /);
  });
});
