// /api/auth/* – Better Auth's own endpoints (sign-in, sign-out, session), behind the same Host and cross-site
// checks as every endpoint. Local mode has no sign-in: these paths answer 404.
import "server-only";
import { getAuth } from "../access/auth.ts";
import { checkBrowserWrite, checkHost } from "../access/browser-checks.ts";
import { accessSettings } from "../access/settings.ts";
import { AppError, type ErrorBody, type ErrorCode } from "../http/app-error.ts";
import { toResponse } from "../http/next-adapter.ts";
import { errorReply } from "../http/reply.ts";

export async function handleAuthRequest(request: Request): Promise<Response> {
  try {
    const settings = accessSettings();
    if (settings.mode === "local")
      throw new AppError("not_found", "Local mode has no sign-in (set TOOLSCOPE_SECRET to turn access control on)");
    checkHost(request.headers, settings, new URL(request.url).host);
    checkBrowserWrite(request.method, request.headers, settings, {
      checkBody: true,
      urlHost: new URL(request.url).host,
    });
    const auth = await getAuth();
    return withRetryAfter(await inToolscopeShape(await auth.handler(request)));
  } catch (error) {
    return toResponse(errorReply(error, `${request.method} /api/auth`));
  }
}

/**
 * Every 429 and 503 tells the client when to come back: Better Auth's sign-in limit sends only its own
 * `X-Retry-After` (seconds), which no client reads.
 */
function withRetryAfter(response: Response): Response {
  if ((response.status !== 429 && response.status !== 503) || response.headers.has("retry-after")) return response;
  const seconds = Number(response.headers.get("x-retry-after"));
  const headers = new Headers(response.headers);
  headers.set("retry-after", String(Number.isInteger(seconds) && seconds > 0 ? seconds : 60));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The code of Toolscope's error shape for a Better Auth answer's status (ERROR_STATUS, read the other way). */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "too_large",
  415: "unsupported_media_type",
  422: "invalid",
  429: "rate_limited",
  503: "unavailable",
};

/**
 * Better Auth answers its errors as `{code, message}` (code like INVALID_EMAIL_OR_PASSWORD); every other error of
 * Toolscope's API is `{"error": {code, message}}`. Its errors are re-shaped, Better Auth's code kept as
 * `details.reason`; the status and headers (Retry-After, cookies) stay as they are.
 */
async function inToolscopeShape(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text();
  let answer: unknown = null;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = null;
  }
  const field = (key: string): string | null => {
    if (typeof answer !== "object" || answer === null || !(key in answer)) return null;
    const value: unknown = (answer as Record<string, unknown>)[key];
    return typeof value === "string" && value !== "" ? value : null;
  };
  const reason = field("code");
  const body: ErrorBody = {
    error: {
      code: CODE_OF_STATUS[response.status] ?? (response.status >= 500 ? "internal" : "bad_request"),
      message:
        field("message") ??
        (text.trim() !== "" && answer === null ? text.slice(0, 500) : response.statusText || `HTTP ${response.status}`),
      ...(reason === null ? {} : { details: { reason } }),
    },
  };
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  // Better Auth's statusText is its code ("BAD_REQUEST"); the standard reason phrase goes with the status alone.
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
