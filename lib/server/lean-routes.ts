// The endpoints the lean server answers itself, without Next's router in front: the ingestion paths, where
// Next's ~1 ms per request would cap throughput far below the targets. Every other path goes to Next, which
// serves the same endpoints' siblings from app/api route files.
import "server-only";
import { eventsEndpoint } from "../events/endpoints.ts";
import { healthEndpoint } from "../health/endpoints.ts";
import type { MethodTable } from "../http/methods.ts";
import { callbackEndpoint } from "../ingest/endpoints.ts";
import { otlpTracesEndpoint } from "../otel/endpoints.ts";
import { relayEndpoint } from "../relay/endpoints.ts";

export const LEAN_ROUTES: ReadonlyMap<string, MethodTable<Record<string, string>>> = new Map([
  ["/api/callback", { POST: callbackEndpoint }],
  ["/api/events", { POST: eventsEndpoint }],
  ["/v1/traces", { POST: otlpTracesEndpoint }],
  ["/api/otel/v1/traces", { POST: otlpTracesEndpoint }],
  // Health too: answered beside Next, so a busy renderer never delays it.
  ["/api/health", { GET: healthEndpoint }],
]);

/**
 * Lean routes with one path parameter: `/api/relay/{name}` (a tool's result on its way to a runtime: the same hot
 * path as /api/callback). Returns the table and its parameters, or null.
 */
export function leanParamRoute(
  path: string,
): { table: MethodTable<Record<string, string>>; params: Record<string, string> } | null {
  const prefix = "/api/relay/";
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length);
  if (rest === "" || rest.includes("/")) return null;
  let name: string;
  try {
    name = decodeURIComponent(rest);
  } catch {
    return null;
  }
  return { table: { POST: relayEndpoint }, params: { name } };
}

/** The routing key of a path: one trailing slash is ignored (`/api/callback/` is `/api/callback`, never a redirect). */
export function routePath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
}
