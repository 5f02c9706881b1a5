// POST /api/callback – accept a tool result for a registered call (the seed's tool_result message).
// The body is read whole (up to the limit) before any check, so every refusal is audited with what was sent.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { config } from "../config.ts";
import { jsonReply } from "../http/reply.ts";
import { acceptToolResult } from "./service.ts";

export const callbackEndpoint = endpoint({
  name: "POST /api/callback",
  access: "callback",
  async handle(request, _params, { principal }) {
    const read = await request.readBody(config().maxBodyBytes);
    const reply = await acceptToolResult({
      ...read,
      contentType: request.headers.get("content-type"),
      contentEncoding: request.headers.get("content-encoding"),
      signature: {
        id: request.headers.get("webhook-id"),
        timestamp: request.headers.get("webhook-timestamp"),
        signature: request.headers.get("webhook-signature"),
      },
      remoteAddress: request.remoteAddress,
      receivedAt: request.receivedAt,
      authenticated: principal.kind === "key" || principal.kind === "user",
    });
    const retryAfter: Record<string, string> = reply.retryAfterSeconds
      ? { "retry-after": String(Math.ceil(reply.retryAfterSeconds)) }
      : {};
    return { ...jsonReply(reply.status, reply.body, retryAfter), closeConnection: read.tooLarge };
  },
});
