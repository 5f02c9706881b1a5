// GET /api/threads/{groupId}/locate?target=&direction=&from= | step= | call= – the event to centre a window on
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { locateEndpoint } from "@/lib/threads/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: locateEndpoint });
