// One endpoint = one handler, whichever server carries the request (Next route files in app/api, the lean
// Node server in lib/server). Every endpoint runs the same pipeline: access check, handler, one error shape,
// Retry-After on every 503/429.
import "server-only";
import { authorizeRequest, type Access } from "../access/guard.ts";
import type { Principal } from "../access/principal.ts";
import { mapDatabaseError } from "../db/errors.ts";
import type { IncomingRequest } from "../http/incoming.ts";
import { errorReply, withRetryAfter, type Reply } from "../http/reply.ts";
import { callerKey, chargeRefusal, checkRefusalBudget } from "./refusal-limit.ts";

export type { Access };

/** What the pipeline established before the handler runs. */
export type EndpointContext = { principal: Principal };

export type Endpoint<Params = Record<string, string>> = {
  access: Access;
  /** Runs the whole pipeline; never throws. */
  run(request: IncomingRequest, params: Params): Promise<Reply>;
};

export function endpoint<Params = Record<string, string>>(spec: {
  access: Access;
  /** Names the endpoint in logs: "POST /api/callback". */
  name: string;
  handle(request: IncomingRequest, params: Params, context: EndpointContext): Promise<Reply>;
}): Endpoint<Params> {
  return {
    access: spec.access,
    async run(request, params) {
      // Writers (ingest, callback) are rate-limited on their refusals, per key or address (refusal-limit.ts).
      const limited = spec.access === "callback" || spec.access === "ingest";
      let caller = `addr:${request.remoteAddress ?? "unknown"}`;
      let reply: Reply;
      try {
        const principal = await authorizeRequest(request, spec.access).catch((refused: unknown) => {
          // A caller refused here (no key, a wrong or revoked key, a foreign Origin) is known by its address only:
          // it was charged for its earlier refusals there, so its budget is checked there too (429 instead of 401).
          if (limited) checkRefusalBudget(caller);
          throw refused;
        });
        caller = callerKey(principal, request.remoteAddress);
        if (limited) checkRefusalBudget(caller);
        reply = withRetryAfter(await spec.handle(request, params, { principal }));
      } catch (error) {
        // A busy, locked or unreachable database is a 503 with Retry-After, never a 500.
        reply = errorReply(mapDatabaseError(error), spec.name);
      } finally {
        request.releaseBody();
      }
      if (limited) chargeRefusal(caller, reply.status);
      return reply;
    },
  };
}
