// POST /api/held/{id}/decision – release, edit, replace with an error, or drop (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { decideHoldEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: decideHoldEndpoint });
