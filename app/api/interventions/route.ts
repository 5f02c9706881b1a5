// GET /api/interventions – the in-path audit log: who changed what, and when
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { interventionsEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: interventionsEndpoint });
