// GET /api/results/{id}/text – a result's raw text: the exact bytes its sha256 covers; ?download=1 as an attachment
import { route } from "@/lib/http/route.ts";
import { TEXT_SHA256_HEADER, resultTextQuerySchema, rowIdSchema } from "@/lib/calls/schemas.ts";
import { getResultText } from "@/lib/calls/service.ts";
import { parseSearchParams } from "@/lib/threads/query-params.ts";
import { z } from "zod";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ id: rowIdSchema });

export const GET = route(async (request, context: { params: Promise<{ id: string }> }) => {
  const { id } = parseSearchParams(paramsSchema, await context.params);
  const { download } = parseSearchParams(resultTextQuerySchema, new URL(request.url).searchParams);
  const text = await getResultText({ resultId: id });
  const headers: Record<string, string> = {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    [TEXT_SHA256_HEADER]: text.sha256,
  };
  if (download === "1") headers["content-disposition"] = `attachment; filename="result-${text.id}.txt"`;
  return new Response(Buffer.from(text.bytes), { headers });
});
