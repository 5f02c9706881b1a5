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
    return await auth.handler(request);
  } catch (error) {
    return toResponse(errorReply(error, `${request.method} /api/auth`));
  }
}
