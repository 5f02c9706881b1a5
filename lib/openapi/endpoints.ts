// GET /api/openapi.json – the OpenAPI 3.1 document, generated from the routes' zod schemas.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { jsonReply } from "../http/reply.ts";
import { buildOpenApiDocument } from "./document.ts";

export const openApiEndpoint = endpoint({
  name: "GET /api/openapi.json",
  access: "public",
  handle: async () => jsonReply(200, buildOpenApiDocument(), { "cache-control": "public, max-age=60" }),
});
