// GET /api/pending?sort=oldest|newest – calls awaiting a result across threads, and active subscriptions
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { pendingEndpoint } from "@/lib/pending/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: pendingEndpoint });
