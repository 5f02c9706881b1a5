// /api/auth/* – Better Auth's own endpoints (sign-in, sign-out, session), behind the same Host and cross-site
// checks as every endpoint. Local mode has no sign-in: these paths answer 404.
import "server-only";
import { getAuth } from "../access/auth.ts";
import { checkBrowserWrite, checkHost } from "../access/browser-checks.ts";
import { accessSettings } from "../access/settings.ts";
import { AppError } from "../http/app-error.ts";
import { toResponse } from "../http/next-adapter.ts";
import { errorReply } from "../http/reply.ts";

export async function handleAuthRequest(request: Request): Promise<Response> {
  try {
    const settings = accessSettings();
    if (settings.mode === "local") throw new AppError("not_found", "Local mode has no sign-in (set TOOLSCOPE_SECRET to turn access control on)");
    checkHost(request.headers, settings, new URL(request.url).host);
    checkBrowserWrite(request.method, request.headers, settings, { checkBody: true, urlHost: new URL(request.url).host });
    const auth = await getAuth();
    return withRetryAfter(await auth.handler(request));
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
