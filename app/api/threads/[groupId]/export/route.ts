// GET /api/threads/{groupId}/export – the thread as lossless Toolscope JSONL, streamed as a download
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { exportEndpoint } from "@/lib/traces/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: exportEndpoint });
