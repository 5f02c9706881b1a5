// GET /api/openapi.json – the OpenAPI 3.1 document, generated from the routes' zod schemas
import { buildOpenApiDocument } from "@/lib/openapi/document.ts";
import { json, route } from "@/lib/http/route.ts";

export const dynamic = "force-static";

export const GET = route(async () => json(buildOpenApiDocument(), { headers: { "cache-control": "public, max-age=60" } }));
