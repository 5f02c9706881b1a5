// POST /api/storage/prune – apply retention now ({"dry_run": true} only reports)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { pruneEndpoint } from "@/lib/lifecycle/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: pruneEndpoint });
