// POST /api/secrets/reveal – one masked value, recorded in the access log
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { revealSecretEndpoint } from "@/lib/audit/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: revealSecretEndpoint });
