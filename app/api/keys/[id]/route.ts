// DELETE /api/keys/{id} – revoke an API key
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { revokeKeyEndpoint } from "@/lib/users/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ DELETE: revokeKeyEndpoint });
