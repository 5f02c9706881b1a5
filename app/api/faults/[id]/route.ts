// PATCH /api/faults/{id} – change a fault rule · DELETE – remove it (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { patchFaultEndpoint, deleteFaultEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ PATCH: patchFaultEndpoint, DELETE: deleteFaultEndpoint });
