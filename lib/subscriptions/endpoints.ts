// GET /api/subscriptions – active and cancelled subscriptions with their result counts.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { jsonReply } from "../http/reply.ts";
import { getSubscriptionsSnapshot } from "./service.ts";

export const subscriptionsEndpoint = endpoint({
  name: "GET /api/subscriptions",
  access: "read",
  handle: async () => jsonReply(200, await getSubscriptionsSnapshot()),
});
