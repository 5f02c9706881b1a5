// GET /api/breakpoints – breakpoint rules · POST – create one (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { listBreakpointsEndpoint, createBreakpointEndpoint } from "@/lib/relay/rules-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({
  GET: listBreakpointsEndpoint,
  POST: createBreakpointEndpoint,
});
