// GET /api/subscriptions – active and cancelled subscriptions with their result counts
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { subscriptionsEndpoint } from "@/lib/subscriptions/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: subscriptionsEndpoint });
