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

export function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | number> = { ...reply.headers };
  // A body we did not read to its end (413, or an error before reading) cannot leave the connection reusable.
  const close = reply.closeConnection === true || (!req.complete && hasBody(req));
  if (close) {
    headers.connection = "close";
    res.once("finish", () => req.destroy());
  }
  const body = reply.body;
  if (body.kind === "stream") {
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
