// GET /api/threads/{groupId}/fork – a fork's state: its turns (streamed output, usage, errors) and the model's calls
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { forkEndpoint } from "@/lib/forks/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: forkEndpoint });
