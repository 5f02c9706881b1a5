// GET /api/faults – fault rules · POST – create one (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { listFaultsEndpoint, createFaultEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listFaultsEndpoint, POST: createFaultEndpoint });
