// GET /api/calls – every call across threads, filtered, searched and sorted, one keyset page at a time
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { exploreCallsEndpoint } from "@/lib/explorer/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: exploreCallsEndpoint });
