// POST /api/otel/v1/traces – the same OTLP/HTTP trace receiver under /api (for proxies that forward only /api)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { otlpTracesEndpoint } from "@/lib/otel/endpoints.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: otlpTracesEndpoint });
