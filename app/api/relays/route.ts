// GET /api/relays – the configured relay targets (never their secrets)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { relaysEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: relaysEndpoint });
