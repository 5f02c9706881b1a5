// GET /api/deliveries/{id}/body – one delivery's stored body as UTF-8 text (JSON), for the raw view
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { deliveryBodyEndpoint } from "@/lib/deliveries/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: deliveryBodyEndpoint });
