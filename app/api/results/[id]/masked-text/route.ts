// GET /api/results/{id}/masked-text – a result's whole text with its secrets masked (JSON)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { maskedResultTextEndpoint } from "@/lib/calls/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: maskedResultTextEndpoint });
