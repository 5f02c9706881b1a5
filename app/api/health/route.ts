// GET /api/health – status, database kind and migration state
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { healthEndpoint } from "@/lib/health/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: healthEndpoint });
