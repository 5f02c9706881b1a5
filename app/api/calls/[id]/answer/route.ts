// POST /api/calls/{id}/answer – answer a pending call as the tool (admin)
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { answerCallEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: answerCallEndpoint });
