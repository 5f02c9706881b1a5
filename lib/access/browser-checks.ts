// The checks that stop other web pages from using a user's browser against Toolscope, in both modes:
// - DNS rebinding: a request whose Host is not one of this server's names is refused;
// - cross-site writes: a state-changing request must not come from another origin (Origin, Sec-Fetch-Site),
//   and must not have a body a page can send without a CORS preflight (text/plain, form-urlencoded, multipart).
//   Requests with such a body would need a CSRF token; Toolscope's own pages never send one, so it is refused.
// Pure: the guard (API endpoints) and the proxy (pages, sign-in) both call these.
import { AppError } from "../http/app-error.ts";
import { isAllowedHost, type AccessSettings } from "./settings.ts";

export type RequestHeaders = { get(name: string): string | null };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Content types a cross-origin page can POST without a preflight (the Fetch standard's CORS-safelisted ones). */
const SIMPLE_BODY_TYPES = new Set(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** `fallback`: the URL's host, for a request object without a Host header (HTTP/1.1 clients always send one). */
export function checkHost(headers: RequestHeaders, settings: AccessSettings, fallback?: string): void {
  const host = headers.get("host") ?? fallback ?? null;
  if (!isAllowedHost(host, settings)) {
    throw new AppError(
      "forbidden",
      `Host "${host ?? ""}" is not a name of this Toolscope; add it to TOOLSCOPE_ALLOWED_HOSTS or TOOLSCOPE_PUBLIC_URL (this check stops DNS-rebinding attacks)`,
    );
  }
}

/** The scheme the client used: a TLS-terminating proxy says https in X-Forwarded-Proto; the server speaks http. */
function requestScheme(headers: RequestHeaders): "http" | "https" {
  return headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https" ? "https" : "http";
}

/**
 * Whether `origin` is this Toolscope, exactly (scheme, host and port): the public URL's origin, a listed origin
 * (TOOLSCOPE_ALLOWED_ORIGINS), or the request's own origin as it reached the server — except under the public
 * URL's host name, where only the public origin is ours (another port or scheme of that name is another site).
 * Host names alone (TOOLSCOPE_ALLOWED_HOSTS) never make an origin ours: they are for the Host check.
 */
export function isSameOrigin(
  origin: string,
  headers: RequestHeaders,
  settings: AccessSettings,
  urlHost?: string,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === "null") return false;
  if (settings.publicUrl && url.origin === settings.publicUrl.origin) return true;
  if (settings.allowedOrigins.includes(url.origin)) return true;
  const host = headers.get("host") ?? urlHost ?? null;
  if (host === null) return false;
  let own: URL;
  try {
    own = new URL(`${requestScheme(headers)}://${host}`);
  } catch {
    return false;
  }
  if (settings.publicUrl && own.hostname === settings.publicUrl.hostname) return false;
  return url.origin === own.origin;
}

/**
 * Refuses a state-changing request another site's page could have made. `checkBody` is false for endpoints
 * that refuse every non-JSON body themselves and audit the refusal (the callback pipeline).
 */
export function checkBrowserWrite(
  method: string,
  headers: RequestHeaders,
  settings: AccessSettings,
  options: { checkBody: boolean; urlHost?: string },
): void {
  if (!isStateChanging(method)) return;
  const origin = headers.get("origin");
  if (origin !== null && !isSameOrigin(origin, headers, settings, options.urlHost)) {
    throw new AppError("forbidden", `Cross-origin request refused: Origin ${origin} is not this Toolscope`);
  }
  const site = headers.get("sec-fetch-site");
  if (origin === null && (site === "cross-site" || site === "same-site")) {
    throw new AppError("forbidden", `Cross-site request refused (Sec-Fetch-Site: ${site})`);
  }
  if (!options.checkBody) return;
  const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (SIMPLE_BODY_TYPES.has(type)) {
    throw new AppError(
      "unsupported_media_type",
      `Content-Type ${type} is refused for writes (any web page could send it); send application/json (or the endpoint's documented type)`,
    );
  }
}
