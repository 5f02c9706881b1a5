// POST /api/callback – accept a tool result for a registered call (the seed's tool_result message).
// `npm start` serves this path through the lean handler in lib/server; this route serves `next dev`.
import { config } from "@/lib/config.ts";
import { route } from "@/lib/http/route.ts";
import { readWebBody } from "@/lib/ingest/read-body.ts";
import { acceptToolResult } from "@/lib/ingest/service.ts";

export const dynamic = "force-dynamic";

export const POST = route(async (request) => {
  const read = await readWebBody(request, config().maxBodyBytes);
  const reply = await acceptToolResult({
    ...read,
    contentType: request.headers.get("content-type"),
    signature: {
      id: request.headers.get("webhook-id"),
      timestamp: request.headers.get("webhook-timestamp"),
      signature: request.headers.get("webhook-signature"),
    },
    remoteAddress: request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? null,
    receivedAt: new Date(),
  });
  return Response.json(reply.body, { status: reply.status, headers: { "cache-control": "no-store" } });
});
