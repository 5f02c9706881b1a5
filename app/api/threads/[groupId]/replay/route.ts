// GET /api/threads/{groupId}/replay?vendor=&step= – the vendor request body (message history) at step N
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { replayEndpoint } from "@/lib/traces/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: replayEndpoint });
