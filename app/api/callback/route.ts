// POST /api/callback – accept a tool result for a registered call (the seed's tool_result message)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { callbackEndpoint } from "@/lib/ingest/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: callbackEndpoint });
