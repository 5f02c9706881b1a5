// GET /api/overview – the overview's figures and short lists (the home page polls it every 2 s).
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { jsonReply } from "../http/reply.ts";
import { getOverview } from "./service.ts";

export const overviewEndpoint = endpoint({
  name: "GET /api/overview",
  access: "read",
  handle: async () => jsonReply(200, await getOverview()),
});
