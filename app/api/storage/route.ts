// GET /api/storage – database size, rows per table, oldest data, what retention removes next
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { storageEndpoint } from "@/lib/lifecycle/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: storageEndpoint });
