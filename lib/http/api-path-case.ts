// API paths are lower-case and case-sensitive (/api/…, /v1/traces). A client that writes /API/callback is an API
// client with a typo, not a visitor: it gets a JSON 404 naming the path it meant, never a page, and never the
// sign-in redirect (an HTML flow no API client can follow) that exposed mode gives page paths.
import { AppError } from "./app-error.ts";

/** First path segments that belong to the API (the lean routes and app/api). */
const API_PREFIXES = ["api", "v1"];

/**
 * The path a mis-cased API path meant, or null when `pathname` is not one. The prefix is lower-cased (ids after
 * it keep their case); when the whole path lower-cased is a known endpoint (`known`), that path is named.
 */
export function intendedApiPath(pathname: string, known: (path: string) => boolean = () => false): string | null {
  const slash = pathname.indexOf("/", 1);
  const first = slash === -1 ? pathname.slice(1) : pathname.slice(1, slash);
  const prefix = first.toLowerCase();
  if (!API_PREFIXES.includes(prefix)) return null;
  const lowered = pathname.toLowerCase();
  if (lowered !== pathname && known(lowered)) return lowered;
  return first === prefix ? null : `/${prefix}${slash === -1 ? "" : pathname.slice(slash)}`;
}

/** The 404 for a mis-cased API path: `{"error":{"code":"not_found","message":"… use /api/callback","details":{"use":"/api/callback"}}}`
 * (`path` in the error shape names a field of the body, so the URL goes in `details`).. */
export function miscasedApiPathError(pathname: string, intended: string): AppError {
  return new AppError("not_found", `No endpoint at ${pathname}: API paths are case-sensitive; use ${intended}`, {
    details: { use: intended },
  });
}
