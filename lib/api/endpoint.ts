// One endpoint = one handler, whichever server carries the request (Next route files in app/api, the lean
// Node server in lib/server). Every endpoint runs the same pipeline: access check, handler, one error shape,
// Retry-After on every 503/429.
import "server-only";
import { authorizeRequest, type Access } from "../access/guard.ts";
import type { IncomingRequest } from "../http/incoming.ts";
import { errorReply, withRetryAfter, type Reply } from "../http/reply.ts";

export type { Access };

export type Endpoint<Params = Record<string, string>> = {
  access: Access;
  /** Runs the whole pipeline; never throws. */
  run(request: IncomingRequest, params: Params): Promise<Reply>;
};

export function endpoint<Params = Record<string, string>>(spec: {
  access: Access;
  /** Names the endpoint in logs: "POST /api/callback". */
  name: string;
  handle(request: IncomingRequest, params: Params): Promise<Reply>;
}): Endpoint<Params> {
  return {
    access: spec.access,
    async run(request, params) {
      try {
        await authorizeRequest(request, spec.access);
        return withRetryAfter(await spec.handle(request, params));
      } catch (error) {
        return errorReply(error, spec.name);
      }
    },
  };
}
