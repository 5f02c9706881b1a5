// POST /api/threads/{groupId}/fork/continue – send the fork's next model turn
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { continueForkEndpoint } from "@/lib/forks/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: continueForkEndpoint });
