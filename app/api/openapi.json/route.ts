// GET /api/openapi.json – the OpenAPI 3.1 document, generated from the routes' zod schemas
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { openApiEndpoint } from "@/lib/openapi/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: openApiEndpoint });
