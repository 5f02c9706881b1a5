// GET /api/users – dashboard users; POST /api/users – add one (exposed mode)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { createUserEndpoint, listUsersEndpoint } from "@/lib/users/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listUsersEndpoint, POST: createUserEndpoint });
