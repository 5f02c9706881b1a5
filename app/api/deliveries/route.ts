// GET /api/deliveries?outcome=&group=&cursor=&limit= – the callback audit log, newest first, one page
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { listDeliveriesEndpoint } from "@/lib/deliveries/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listDeliveriesEndpoint });
