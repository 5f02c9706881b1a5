// POST /api/relay/{name} – a tool's result, forwarded to the relay target `name` (TOOLSCOPE_RELAYS).
// The in-path endpoints (breakpoints, faults, held results, answers, approvals, the outbox) are in the files beside.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { config } from "../config.ts";
import { relayToolResult } from "./relay-service.ts";

export const relayEndpoint = endpoint<{ name: string }>({
  name: "POST /api/relay/{name}",
  access: "callback",
  async handle(request, params, { principal }) {
    const read = await request.readBody(config().maxBodyBytes);
    const reply = await relayToolResult({
      targetName: params.name,
      raw: {
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
      },
    });
    return { ...reply, closeConnection: read.tooLarge };
  },
});
