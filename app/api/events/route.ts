// POST /api/events – record the runtime's side of a trace: one event, or a batch answered 207 per item
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { eventsEndpoint } from "@/lib/events/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: eventsEndpoint });
