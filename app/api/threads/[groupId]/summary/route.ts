// GET /api/threads/{groupId}/summary – the thread header's counts, polled by the page
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { summaryEndpoint } from "@/lib/threads/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: summaryEndpoint });
