// GET /api/held/{id} – one held result
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { heldOneEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: heldOneEndpoint });
