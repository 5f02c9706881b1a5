// Serves an endpoint table on the lean Node server (lib/server): the same endpoints as the Next route files,
// without Next's router in front of them.
import type { IncomingMessage, ServerResponse } from "node:http";
import { fromNodeRequest } from "./incoming.ts";
import { methodNotAllowed, type Method, type MethodTable } from "./methods.ts";
import type { Reply } from "./reply.ts";

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** After an early answer (413, 503…), the rest of the body is read and discarded up to this many bytes… */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** …or for this long, before the connection is closed. */
export const DRAIN_MAX_MS = 10_000;

/**
 * Sends the answer, then reads what is left of the body (discarding it) before ending the response and closing:
 * closing while the client still writes resets the connection, and most clients (Node's, which OTLP exporters
 * use) then report ECONNRESET/EPIPE instead of the status — and retry forever what a 413 told them to drop.
 * Bounded by DRAIN_MAX_BYTES and DRAIN_MAX_MS: a sender that keeps going is cut off.
 */
function answerThenDrain(req: IncomingMessage, res: ServerResponse, head: () => void, bytes: Uint8Array): void {
  head();
  res.write(bytes);
  let drained = 0;
  let ended = false;
  const end = (cut: boolean) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    req.removeListener("data", onData);
    res.end(() => {
      if (cut) req.destroy();
    });
    if (!cut) res.once("finish", () => req.destroy());
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) end(true);
  };
  const timer = setTimeout(() => end(true), DRAIN_MAX_MS);
  timer.unref();
  req.on("data", onData);
  req.once("end", () => end(false));
  req.once("error", () => end(true));
  req.once("close", () => end(!req.complete));
  req.resume();
}

export function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | number> = { ...reply.headers };
  // A body we did not read to its end (413, or an error before reading) cannot leave the connection reusable.
  const unread = !req.complete && hasBody(req);
  const close = reply.closeConnection === true || unread;
  if (close) {
    headers.connection = "close";
    if (!unread) res.once("finish", () => req.destroy());
  }
  const body = reply.body;
  if (body.kind === "stream") {
    if (unread) res.once("finish", () => req.destroy());
    res.writeHead(reply.status, headers);
    void (async () => {
      try {
        for await (const chunk of body.value)
          if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
        res.end();
      } catch (error) {
        console.error("[toolscope] streamed reply failed", error);
        res.destroy();
      }
    })();
    return;
  }
  const bytes =
    body.kind === "json"
      ? Buffer.from(JSON.stringify(body.value))
      : body.kind === "bytes"
        ? body.value
        : Buffer.alloc(0);
  if (body.kind === "json") headers["content-type"] = "application/json";
  headers["content-length"] = bytes.byteLength;
  if (unread && !req.destroyed) {
    answerThenDrain(req, res, () => res.writeHead(reply.status, headers), bytes);
    return;
  }
  if (unread) res.once("finish", () => req.destroy());
  res.writeHead(reply.status, headers);
  res.end(bytes);
}

export async function serveNode<Params>(
  table: MethodTable<Params>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  params: Params,
): Promise<void> {
  const target = table[(req.method ?? "GET") as Method];
  const reply = target
    ? await target.run(fromNodeRequest(req, url), params)
    : methodNotAllowed(req.method ?? "GET", table as MethodTable<never>);
  if (res.headersSent || res.destroyed) return;
  writeReply(req, res, reply);
}
