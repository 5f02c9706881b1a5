// POST /api/threads/{groupId}/fork/calls/{callId}/answer – answer a fork's call from the recording or by hand
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { answerForkCallEndpoint } from "@/lib/forks/endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ POST: answerForkCallEndpoint });
