// POST /api/import – import a vendor transcript or a Toolscope JSONL export as one thread
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { importEndpoint } from "@/lib/traces/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: importEndpoint });
