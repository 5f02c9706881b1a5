// GET /api/models – the model targets forks can use (TOOLSCOPE_MODELS), without their keys
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { modelsEndpoint } from "@/lib/forks/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: modelsEndpoint });
