// GET /api/threads/{groupId}/timeline?after=|before=|around=&limit=&q=&only= – a window of the thread's events, with call state
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { timelineEndpoint } from "@/lib/threads/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: timelineEndpoint });
