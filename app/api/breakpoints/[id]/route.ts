// PATCH /api/breakpoints/{id} – change a breakpoint · DELETE – remove it (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { patchBreakpointEndpoint, deleteBreakpointEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({
  PATCH: patchBreakpointEndpoint,
  DELETE: deleteBreakpointEndpoint,
});
