// GET /api/insights – confidence distribution, nextAction counts, error types by tool, slowest tools.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { jsonReply } from "../http/reply.ts";
import { getInsights } from "./service.ts";

export const insightsEndpoint = endpoint({
  name: "GET /api/insights",
  access: "read",
  handle: async () => jsonReply(200, await getInsights()),
});
