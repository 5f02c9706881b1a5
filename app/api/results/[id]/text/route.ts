// GET /api/results/{id}/text – a result's raw text, the exact bytes its sha256 covers
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { resultTextEndpoint } from "@/lib/calls/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: resultTextEndpoint });
