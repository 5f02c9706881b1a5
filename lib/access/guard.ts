// Who may call an endpoint: the access level each endpoint declares, checked before its handler runs.
// Access levels: public (health, OpenAPI), ingest (runtimes and tools posting), read (GET APIs, exports),
// admin (import, keys, users, retention, forks), callback (ingest, or a Standard Webhooks signature checked by
// the callback pipeline itself so a refusal is audited).
// Both modes first refuse foreign Host names and cross-site writes (browser-checks.ts); local mode then lets
// every loopback client through, exposed mode wants a signed-in user or an API key of the right scope.
import "server-only";
import { config } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import type { IncomingRequest } from "../http/incoming.ts";
import { sessionUser } from "./auth.ts";
import { checkBrowserWrite, checkHost } from "./browser-checks.ts";
import { verifyKey } from "./keys.ts";
import { ANONYMOUS_PRINCIPAL, LOCAL_PRINCIPAL, type Principal } from "./principal.ts";
import type { KeyScope } from "./schemas.ts";
import { accessSettings } from "./settings.ts";

export const ACCESS_LEVELS = ["public", "callback", "ingest", "read", "admin"] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** The key scopes that reach each level: an admin key reaches everything, the others their own level. */
const SCOPES_FOR: Record<Exclude<Access, "public">, readonly KeyScope[]> = {
  callback: ["ingest", "admin"],
  ingest: ["ingest", "admin"],
  read: ["read", "admin"],
  admin: ["admin"],
};

function bearerToken(header: string): string {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match?.[1]) throw new AppError("unauthorized", "The Authorization header must be `Bearer <key>`");
  return match[1];
}

async function keyPrincipal(header: string, access: Access): Promise<Principal> {
  const key = await verifyKey(bearerToken(header));
  if (access !== "public" && !SCOPES_FOR[access].includes(key.scope)) {
    throw new AppError(
      "forbidden",
      `API key "${key.name}" has the ${key.scope} scope; this endpoint needs ${SCOPES_FOR[access].join(" or ")}`,
    );
  }
  return { kind: "key", id: String(key.id), label: key.name, scope: key.scope };
}

function forwardedHeaders(request: IncomingRequest): Headers {
  const headers = new Headers();
  for (const name of ["cookie", "user-agent"]) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // Better Auth resolves its base URL from the Host (already allowed by checkHost).
  headers.set("host", request.headers.get("host") ?? request.url.host);
  return headers;
}

/**
 * Returns who is calling, or throws an AppError (401 no credential, 403 wrong scope or a refused browser
 * request, 415 a body any web page could send) when `request` may not reach an endpoint of `access`.
 */
export async function authorizeRequest(request: IncomingRequest, access: Access): Promise<Principal> {
  const settings = accessSettings();
  checkHost(request.headers, settings, request.url.host);
  // Ingest endpoints (callback, events, OTLP) accept only JSON or protobuf bodies and refuse the rest themselves,
  // in their protocol's answer (an audited 415, a google.rpc.Status): the Origin checks still apply here.
  checkBrowserWrite(request.method, request.headers, settings, {
    checkBody: access !== "callback" && access !== "ingest",
    urlHost: request.url.host,
  });
  if (settings.mode === "local") return LOCAL_PRINCIPAL;

  const authorization = request.headers.get("authorization");
  if (authorization !== null) return keyPrincipal(authorization, access);
  if (access === "public") return ANONYMOUS_PRINCIPAL;
  const user = await sessionUser(forwardedHeaders(request));
  if (user) return { kind: "user", id: user.id, label: user.email };
  // A tool that knows only the callback secret: the callback pipeline verifies (and audits) the signature.
  if (
    access === "callback" &&
    config().callbackSecrets.length > 0 &&
    request.headers.get("webhook-signature") !== null
  ) {
    return { kind: "webhook", label: "signature" };
  }
  throw new AppError(
    "unauthorized",
    access === "callback"
      ? "Send `Authorization: Bearer <key>` (an ingest key) or sign the body (Standard Webhooks, TOOLSCOPE_CALLBACK_SECRET)"
      : `Send \`Authorization: Bearer <key>\` (a key with the ${SCOPES_FOR[access][0]} scope), or sign in`,
  );
}
