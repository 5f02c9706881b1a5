// Serves an endpoint table from a Next route file: `export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: … })`.
// Methods the table lacks answer 405 with Allow and the JSON error.
import { fromWebRequest } from "./incoming.ts";
import { METHODS, methodNotAllowed, type Method, type MethodTable } from "./methods.ts";
import type { Reply } from "./reply.ts";

type NextContext = { params: Promise<Record<string, string | string[]>> };
type NextHandler = (request: Request, context?: NextContext) => Promise<Response>;

function toStream(source: AsyncIterable<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === "string" ? encoder.encode(value) : value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

export function toResponse(reply: Reply): Response {
  const headers = new Headers(reply.headers);
  switch (reply.body.kind) {
    case "json":
      headers.set("content-type", "application/json");
      return new Response(JSON.stringify(reply.body.value), { status: reply.status, headers });
    case "bytes":
      return new Response(new Uint8Array(reply.body.value), { status: reply.status, headers });
    case "stream":
      return new Response(toStream(reply.body.value), { status: reply.status, headers });
    case "empty":
      return new Response(null, { status: reply.status, headers });
  }
}

async function plainParams(context: NextContext | undefined): Promise<Record<string, string>> {
  const raw = context ? await context.params : {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {})) out[key] = Array.isArray(value) ? value.join("/") : value;
  return out;
}

export function nextRoutes<Params extends Record<string, string>>(
  table: MethodTable<Params>,
): Record<Method, NextHandler> {
  const handlers = {} as Record<Method, NextHandler>;
  for (const method of METHODS) {
    const target = table[method];
    handlers[method] = async (request, context) => {
      if (!target) return toResponse(methodNotAllowed(request.method, table as MethodTable<never>));
      // Next hands route params as strings (catch-all segments as arrays); endpoints read the record they declare.
      const params = (await plainParams(context)) as Params;
      return toResponse(await target.run(fromWebRequest(request), params));
    };
  }
  return handlers;
}
