// POST /api/threads/{groupId}/forks – fork the thread at step N with edits and send it to a model target
// GET /api/threads/{groupId}/forks – the forks made from this thread
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { createForkEndpoint, listForksEndpoint } from "@/lib/forks/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listForksEndpoint, POST: createForkEndpoint });
