// POST /api/relay/{name} – a tool's result, forwarded to a configured runtime (also served by the lean server).
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { relayEndpoint } from "@/lib/relay/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: relayEndpoint });
