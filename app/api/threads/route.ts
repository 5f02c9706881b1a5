// GET /api/threads – one page of threads by last activity, filtered and searched, with a keyset cursor
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { listThreadsEndpoint } from "@/lib/threads/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listThreadsEndpoint });
