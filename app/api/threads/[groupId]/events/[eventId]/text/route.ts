// GET /api/threads/{groupId}/events/{eventId}/text – the whole text of one timeline event
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { eventTextEndpoint } from "@/lib/threads/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: eventTextEndpoint });
