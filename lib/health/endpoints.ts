// GET /api/health – status, database kind and migration state.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { jsonReply } from "../http/reply.ts";
import { getHealth } from "./service.ts";

export const healthEndpoint = endpoint({
  name: "GET /api/health",
  access: "public",
  async handle() {
    const health = await getHealth();
    return jsonReply(health.status === "ok" ? 200 : 503, health);
  },
});
