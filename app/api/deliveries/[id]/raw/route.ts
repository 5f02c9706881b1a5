// GET /api/deliveries/{id}/raw – the exact stored bytes, as a download
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { deliveryRawEndpoint } from "@/lib/deliveries/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: deliveryRawEndpoint });
