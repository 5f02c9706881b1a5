// GET /api/calls/{id}/deliveries/{deliveryId}/body – the raw bytes of one delivery to this call
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { callDeliveryBodyEndpoint } from "@/lib/calls/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: callDeliveryBodyEndpoint });
