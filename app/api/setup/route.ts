// POST /api/setup – create the first user with the setup token the server printed (exposed mode, no user yet)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { setupEndpoint } from "@/lib/users/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: setupEndpoint });
