// GET /api/health – ok (200), degraded or down (503, with Retry-After), within a second (service.ts).
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { jsonReply } from "../http/reply.ts";
import { getHealth } from "./service.ts";

export const healthEndpoint = endpoint({
  name: "GET /api/health",
  access: "public",
  async handle(request, _params, { principal }) {
    const health = await getHealth({ counts: request.url.searchParams.get("counts") !== "0" });
    const status = health.status === "ok" ? 200 : 503;
    // Exposed mode, no credential: whether it is up, nothing about what it holds.
    if (principal.kind === "anonymous")
      return jsonReply(status, { status: health.status, migrations: { state: health.migrations.state } });
    return jsonReply(status, health);
  },
});
