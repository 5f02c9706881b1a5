// GET /api/threads – one page of threads by last activity, filtered and searched, with a keyset cursor
import { json, route } from "@/lib/http/route.ts";
import { parseSearchParams } from "@/lib/threads/query-params.ts";
import { threadListQuerySchema } from "@/lib/threads/schemas.ts";
import { listThreads } from "@/lib/threads/service.ts";

export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  const query = parseSearchParams(threadListQuerySchema, new URL(request.url).searchParams);
  return json(await listThreads({ query }));
});
