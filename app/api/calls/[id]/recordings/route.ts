// GET /api/calls/{id}/recordings – recorded results of the same tool and arguments
import { nextRoutes } from "@/lib/http/next-adapter.ts";
import { recordingsEndpoint } from "@/lib/relay/approvals-endpoints.ts";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = nextRoutes({ GET: recordingsEndpoint });
