// GET /api/threads/{groupId}/replay/view?vendor=&step= – the replay page's data at step N (the history's end, masked)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { replayViewEndpoint } from "@/lib/traces/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: replayViewEndpoint });
