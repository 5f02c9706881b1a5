// POST /api/callback on the lean server path (lib/server/toolscope-server.ts): Node request in, JSON reply out.
import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "../config.ts";
import { sendJson } from "../http/node-json.ts";
import { readNodeBody } from "./read-body.ts";
import { acceptToolResult } from "./service.ts";

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

export async function handleCallbackRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const read = await readNodeBody(req, config().maxBodyBytes);
    const reply = await acceptToolResult({
      ...read,
      contentType: header(req, "content-type"),
      signature: { id: header(req, "webhook-id"), timestamp: header(req, "webhook-timestamp"), signature: header(req, "webhook-signature") },
      remoteAddress: req.socket.remoteAddress ?? null,
      receivedAt: new Date(),
    });
    // The rest of an oversized upload is not read: close the connection instead of draining it.
    if (read.tooLarge) res.once("finish", () => req.destroy());
    sendJson(res, reply.status, reply.body, read.tooLarge ? { connection: "close" } : {});
  } catch (error) {
    console.error("[toolscope] callback handler failed", error);
    if (!res.headersSent) sendJson(res, 500, { error: { code: "internal", message: "Internal error; see the server log" } });
    else res.destroy();
  }
}
