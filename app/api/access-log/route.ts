// GET /api/access-log – reveals, exports and raw reads, newest first
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { accessLogEndpoint } from "@/lib/audit/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: accessLogEndpoint });
