// POST /v1/traces – OTLP/HTTP trace export (protobuf or JSON): OTEL_EXPORTER_OTLP_ENDPOINT points here
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { otlpTracesEndpoint } from "@/lib/otel/endpoints.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: otlpTracesEndpoint });
