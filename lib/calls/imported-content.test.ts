// What the call page receives for imported calls: non-text result content from every vendor, MCP tool titles and
// annotations, and arguments whose numbers exceed 2^53 shown with their digits — on real databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicRequest, PDF, PNG, responsesRequest } from "../replay/fixtures/vendor-requests.ts";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { importTranscript } from "../traces/service.ts";
import { getCallDetail } from "./service.ts";

describe.each(testBackends())("imported call detail on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  async function detailOf(text: string, callKey: string) {
    const groupId = uniqueId("content");
    expect((await importTranscript({ text, groupId, database: t.database })).status).toBe(201);
    const call = await t.database.client.toolCall.findFirstOrThrow({
      where: { groupId, callKey },
      select: { id: true },
    });
    return getCallDetail({ callRowId: call.id, database: t.database });
  }

  it("shows an Anthropic result's image and documents, not an empty result", async () => {
    const detail = await detailOf(JSON.stringify(anthropicRequest), "toolu_01Site7");
    expect(detail.results[0]?.content).toEqual({
      format: "anthropic",
      blocks: [
        { type: "text", text: "Site 7: photo and report attached." },
        { type: "image", mimeType: "image/png", data: PNG },
        { type: "document", mimeType: "application/pdf", data: PDF, title: "report-7.pdf" },
        {
          type: "document",
          mimeType: "text/plain",
          text: "Crack on pillar B.",
          title: "notes.txt",
          extra: { format: "anthropic", fields: { cache_control: { type: "ephemeral" } } },
        },
      ],
    });
  });

  it("shows a Responses output's image and file", async () => {
    const detail = await detailOf(JSON.stringify(responsesRequest), "call_site7");
    expect(detail.results[0]?.content?.blocks.map((block) => block.type)).toEqual(["text", "media_ref", "document"]);
  });

  it("shows MCP tool titles and annotations, and keeps MCP blocks in the MCP panel", async () => {
    const log = [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          tools: [
            {
              name: "echo",
              title: "Echo Tool",
              inputSchema: { type: "object" },
              annotations: { readOnlyHint: true, destructiveHint: false },
            },
          ],
        },
      },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "echo", arguments: { message: "hi", order: 12345678901234567890 } },
      },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "Echo: hi" }] } },
    ];
    const detail = await detailOf(
      log
        .map((line) => JSON.stringify(line).replace('"order":12345678901234567000', '"order":12345678901234567890'))
        .join("\n"),
      "mcp-2",
    );
    expect(detail.call.declaration).toMatchObject({
      title: "Echo Tool",
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
    expect(detail.results[0]?.content).toBeNull();
    expect(detail.results[0]?.mcp?.content).toEqual([{ type: "text", text: "Echo: hi" }]);
    // Integers above 2^53 keep their digits on the page.
    expect(detail.call.arguments.raw?.head).toBe('{"message":"hi","order":12345678901234567890}');
    expect(detail.call.arguments.formatted).toEqual({
      kind: "text",
      text: '{\n  "message": "hi",\n  "order": 12345678901234567890\n}',
      truncated: false,
    });
  });
});
