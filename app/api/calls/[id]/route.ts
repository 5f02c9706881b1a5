// GET /api/calls/{id} – a call with its newest results analysed and its deliveries; ?view=call for the call alone
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { callEndpoint } from "@/lib/calls/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: callEndpoint });
