// GET /api/pending?sort=oldest|newest – calls awaiting a result across threads, and active subscriptions.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { parseQuery } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import { pendingQuerySchema } from "./schemas.ts";
import { getPendingSnapshot } from "./service.ts";

export const pendingEndpoint = endpoint({
  name: "GET /api/pending",
  access: "read",
  async handle(request) {
    const { sort } = parseQuery(pendingQuerySchema, request.url.searchParams);
    return jsonReply(200, await getPendingSnapshot({ sort }));
  },
});
