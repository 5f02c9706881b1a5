// Runs in front of every page (Next 16 proxy, in `npm start` and `next dev` alike): refuses foreign Host names
// (DNS rebinding), gives each page a fresh CSP nonce, and in exposed mode sends visitors without a valid
// session to /sign-in. API endpoints check the same things in their own pipeline (lib/access/guard.ts).
import { NextResponse, type NextRequest } from "next/server";
import { sessionUser } from "@/lib/access/auth.ts";
import { checkBrowserWrite, checkHost } from "@/lib/access/browser-checks.ts";
import { contentSecurityPolicy, newNonce } from "@/lib/access/csp.ts";
import { accessSettings } from "@/lib/access/settings.ts";
import { intendedApiPath, miscasedApiPathError } from "@/lib/http/api-path-case.ts";
import { AppError } from "@/lib/http/app-error.ts";

/** Pages a visitor reaches without a session in exposed mode. */
const OPEN_PAGES = ["/sign-in", "/setup"];

function refusal(error: AppError): NextResponse {
  return NextResponse.json(error.toBody(), { status: error.status, headers: { "cache-control": "no-store" } });
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const settings = accessSettings();
  try {
    checkHost(request.headers, settings, request.nextUrl.host);
    checkBrowserWrite(request.method, request.headers, settings, { checkBody: true, urlHost: request.nextUrl.host });
  } catch (error) {
    if (error instanceof AppError) return refusal(error);
    throw error;
  }
  const { pathname, search } = request.nextUrl;
  // A mis-cased API path (/API/callback) is an API client's typo: JSON naming the right path, not a sign-in page.
  // `npm start` answers it in its own server before Next (lib/server); this covers `next dev`.
  const intended = intendedApiPath(pathname);
  if (intended) return refusal(miscasedApiPathError(pathname, intended));
  if (settings.mode === "exposed" && !OPEN_PAGES.includes(pathname)) {
    const user = await sessionUser(request.headers);
    if (!user) {
      const target = new URL("/sign-in", settings.publicUrl ?? request.url);
      if (pathname !== "/") target.searchParams.set("next", `${pathname}${search}`);
      return NextResponse.redirect(target, 303);
    }
  }
  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  // Next reads the nonce for its own scripts from the request's policy header.
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Pages (and their RSC requests) only: API routes run the endpoint pipeline; static files carry no data.
  matcher: [{ source: "/((?!api/|v1/|_next/static|_next/image|favicon\\.ico).*)" }],
};
