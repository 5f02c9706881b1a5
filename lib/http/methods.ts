// The HTTP methods an endpoint table can hold, and the 405 answer for the others.
import { AppError } from "./app-error.ts";
import type { IncomingRequest } from "./incoming.ts";
import { errorReply, type Reply } from "./reply.ts";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** Anything that answers a request for a method: an endpoint's run(). */
export type Runnable<Params> = { run(request: IncomingRequest, params: Params): Promise<Reply> };
export type MethodTable<Params> = Partial<Record<Method, Runnable<Params>>>;

export function allowedMethods(table: MethodTable<never>): string {
  const methods: string[] = METHODS.filter((method) => table[method] !== undefined);
  if (table.GET) methods.push("HEAD");
  return methods.join(", ");
}

export function methodNotAllowed(method: string, table: MethodTable<never>): Reply {
  const allow = allowedMethods(table);
  return errorReply(
    new AppError("method_not_allowed", `${method} is not allowed here; use ${allow}`, { headers: { allow } }),
  );
}
