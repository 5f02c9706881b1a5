// GET /api/calls – every call across threads, filtered, searched and sorted, one keyset page at a time.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { parseQuery } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import { explorerQuerySchema } from "./schemas.ts";
import { exploreCalls } from "./service.ts";

export const exploreCallsEndpoint = endpoint({
  name: "GET /api/calls",
  access: "read",
  handle: async (request) =>
    jsonReply(200, await exploreCalls(parseQuery(explorerQuerySchema, request.url.searchParams))),
});
