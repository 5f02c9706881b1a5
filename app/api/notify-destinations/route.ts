// GET /api/notify-destinations – the alert destinations configured in TOOLSCOPE_NOTIFY (never their secrets)
import { listNotifyDestinationsEndpoint } from "@/lib/alerts/endpoints.ts";
import { nextRoutes } from "@/lib/http/next-adapter.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: listNotifyDestinationsEndpoint });
