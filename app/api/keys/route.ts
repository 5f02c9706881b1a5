// GET /api/keys – the API keys (never the keys themselves); POST /api/keys – create one (shown once)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { createKeyEndpoint, listKeysEndpoint } from "@/lib/users/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listKeysEndpoint, POST: createKeyEndpoint });
