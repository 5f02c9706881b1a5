// GET /api/held – results held at breakpoints now, and the last decided
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { heldEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: heldEndpoint });
