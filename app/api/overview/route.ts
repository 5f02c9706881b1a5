// GET /api/overview – the overview's figures and short lists
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { overviewEndpoint } from "@/lib/overview/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: overviewEndpoint });
