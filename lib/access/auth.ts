// Dashboard sign-in (exposed mode) through Better Auth: email + password (scrypt hashes), sessions stored in
// Toolscope's database through its Prisma adapter, an HttpOnly SameSite=Lax cookie signed with TOOLSCOPE_SECRET
// (Secure when TOOLSCOPE_PUBLIC_URL is https). Sign-up is closed: users are created by an admin (the CLI,
// the one-time setup page, the settings page) through createUser below.
import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { accessSettings, isAllowedHost, type AccessSettings } from "./settings.ts";

export const MIN_PASSWORD_LENGTH = 12;
export const AUTH_BASE_PATH = "/api/auth";
export const SESSION_COOKIE_PREFIX = "toolscope";

function buildAuth(database: Database, settings: AccessSettings) {
  if (settings.secret === null) throw new AppError("internal", "Sign-in needs TOOLSCOPE_SECRET (exposed mode)");
  const publicUrl = settings.publicUrl;
  return betterAuth({
    appName: "Toolscope",
    secret: settings.secret,
    basePath: AUTH_BASE_PATH,
    // The base URL is the Host the request reached. Toolscope's Host allowlist (settings.ts isAllowedHost: loopback
    // names, *.localhost, IP addresses, the configured names) has refused every other name before a request gets
    // here (the proxy, the guard and the auth route run checkHost first; sessionUser checks again), and Better
    // Auth's patterns cannot say "an IP address": a narrower list here made a LAN address or *.localhost a 500.
    baseURL: publicUrl ? publicUrl.origin : { allowedHosts: ["*"], protocol: "http" },
    // The origin the request reached (its Host was allowed already): same-origin browser requests pass.
    trustedOrigins: (request) => {
      const host = request?.headers.get("host") ?? (request ? new URL(request.url).host : null);
      return [
        publicUrl?.origin,
        ...settings.allowedOrigins,
        host ? `http://${host}` : null,
        host ? `https://${host}` : null,
      ];
    },
    database: prismaAdapter(database.client, { provider: database.provider }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 256,
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Sign-in attempts are limited per address (Better Auth's own limiter, in memory).
    rateLimit: { enabled: true, window: 60, max: 100, customRules: { "/sign-in/email": { window: 60, max: 10 } } },
    advanced: { cookiePrefix: SESSION_COOKIE_PREFIX, useSecureCookies: publicUrl?.protocol === "https:" },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof buildAuth>;

// One instance per process, shared like the database (the custom server and the Next bundle load this module
// separately).
const globalForAuth = globalThis as typeof globalThis & { toolscopeAuth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  globalForAuth.toolscopeAuth ??= getDatabase()
    .then((database) => buildAuth(database, accessSettings()))
    .catch((error: unknown) => {
      globalForAuth.toolscopeAuth = undefined;
      throw error;
    });
  return globalForAuth.toolscopeAuth;
}

/** Tests that switch databases or settings drop the process's instance. */
export function resetAuth(): void {
  globalForAuth.toolscopeAuth = undefined;
}

/** Tests and the CLI bind sign-in to a database they opened themselves. */
export function authFor(database: Database, settings: AccessSettings = accessSettings()): Auth {
  return buildAuth(database, settings);
}

export type SessionUser = { id: string; email: string; name: string };

/** The signed-in user a request's cookie names, or null (no cookie, bad signature, expired or signed out). */
export async function sessionUser(headers: Headers, auth?: Auth): Promise<SessionUser | null> {
  if (!headers.get("cookie")?.includes(`${SESSION_COOKIE_PREFIX}.`)) return null;
  // Callers have refused foreign Host names already (checkHost); a session is never read under another name.
  if (!isAllowedHost(headers.get("host"), accessSettings())) return null;
  const session = await (auth ?? (await getAuth())).api.getSession({ headers });
  return session ? { id: session.user.id, email: session.user.email, name: session.user.name } : null;
}

/** Creates a user with a scrypt-hashed password (the credential account Better Auth signs in with). */
export async function createUser(
  auth: Auth,
  input: { email: string; password: string; name?: string },
): Promise<SessionUser> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new AppError("invalid", `"${input.email}" is not an email address`, { path: "email" });
  if (input.password.length < MIN_PASSWORD_LENGTH)
    throw new AppError("invalid", `The password must be at least ${MIN_PASSWORD_LENGTH} characters`, {
      path: "password",
    });
  if (input.password.length > 256)
    throw new AppError("invalid", "The password must be at most 256 characters", { path: "password" });
  const context = await auth.$context;
  if (await context.internalAdapter.findUserByEmail(email))
    throw new AppError("conflict", `A user ${email} already exists`, { path: "email" });
  const hash = await context.password.hash(input.password);
  const user = await context.internalAdapter.createUser(
    { email, name: input.name?.trim() || email, emailVerified: true },
    { method: "admin" },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: hash,
  });
  return { id: user.id, email: user.email, name: user.name };
}
