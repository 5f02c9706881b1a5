// POST /api/threads/{groupId}/fork/stop – stop the fork's running model turn
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { stopForkEndpoint } from "@/lib/forks/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: stopForkEndpoint });
