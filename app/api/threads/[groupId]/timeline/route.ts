// GET /api/threads/{groupId}/timeline?after=&limit= – the thread's events after an id, with call state
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { timelineEndpoint } from "@/lib/threads/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: timelineEndpoint });
