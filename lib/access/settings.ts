// The access mode, read once from the environment: local (no TOOLSCOPE_SECRET: loopback only, no login) or
// exposed (TOOLSCOPE_SECRET set: sign-in for pages, API keys for programs). Also the names the server may be
// reached by (the Host allowlist that stops DNS rebinding). Pure: the start script, the proxy and the guard read it.
import { isIP } from "node:net";
import { setting, type Environment } from "../config.ts";

export const MIN_SECRET_LENGTH = 32;

export type AccessSettings = {
  mode: "local" | "exposed";
  /** TOOLSCOPE_SECRET (exposed mode): signs session cookies. */
  secret: string | null;
  /** TOOLSCOPE_PUBLIC_URL: where users reach Toolscope (https behind a reverse proxy → Secure cookies). */
  publicUrl: URL | null;
  /** Host names (lower case, no port) requests may carry besides loopback names and IP literals. */
  allowedHosts: string[];
  /** TOOLSCOPE_ALLOWED_ORIGINS: exact origins (scheme://host[:port]) whose pages may write, besides the public URL. */
  allowedOrigins: string[];
};

export class AccessConfigError extends Error {}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);

function hostnameOf(entry: string): string {
  const value = entry.trim().toLowerCase();
  if (value === "") return "";
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname
      .replace(/^\[|\]$/g, "")
      .replace(/\.$/, "");
  } catch {
    throw new AccessConfigError(`TOOLSCOPE_ALLOWED_HOSTS: "${entry}" is not a host name`);
  }
}

function originOf(entry: string): string {
  const value = entry.trim();
  if (value === "") return "";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AccessConfigError(
      `TOOLSCOPE_ALLOWED_ORIGINS: "${entry}" is not an origin such as https://ops.example.com`,
    );
  }
  const bare = url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "";
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !bare)
    throw new AccessConfigError(
      `TOOLSCOPE_ALLOWED_ORIGINS: "${entry}" must be exactly scheme://host[:port], such as https://ops.example.com`,
    );
  return url.origin;
}

export function readAccessSettings(env: Environment = process.env): AccessSettings {
  const secret = setting("TOOLSCOPE_SECRET", env) ?? null;
  if (secret !== null && secret.length < MIN_SECRET_LENGTH) {
    throw new AccessConfigError(
      `TOOLSCOPE_SECRET must be at least ${MIN_SECRET_LENGTH} characters (it signs session cookies); generate one with \`openssl rand -base64 32\``,
    );
  }
  let publicUrl: URL | null = null;
  const rawPublic = setting("TOOLSCOPE_PUBLIC_URL", env);
  if (rawPublic) {
    try {
      publicUrl = new URL(rawPublic);
    } catch {
      throw new AccessConfigError(
        `TOOLSCOPE_PUBLIC_URL must be a URL such as https://toolscope.example.com, got "${rawPublic}"`,
      );
    }
    if (publicUrl.protocol !== "http:" && publicUrl.protocol !== "https:")
      throw new AccessConfigError("TOOLSCOPE_PUBLIC_URL must be an http(s) URL");
  }
  const allowedHosts = (setting("TOOLSCOPE_ALLOWED_HOSTS", env) ?? "").split(",").map(hostnameOf).filter(Boolean);
  if (publicUrl) allowedHosts.push(hostnameOf(publicUrl.host));
  const allowedOrigins = (setting("TOOLSCOPE_ALLOWED_ORIGINS", env) ?? "").split(",").map(originOf).filter(Boolean);
  // A page of a listed origin reaches the server under that origin's host name.
  for (const origin of allowedOrigins) allowedHosts.push(hostnameOf(origin));
  return { mode: secret === null ? "local" : "exposed", secret, publicUrl, allowedHosts, allowedOrigins };
}

const globalForSettings = globalThis as typeof globalThis & { toolscopeAccessSettings?: AccessSettings };

/** The process's settings (the environment is read once; tests call resetAccessSettings after changing it). */
export function accessSettings(): AccessSettings {
  globalForSettings.toolscopeAccessSettings ??= readAccessSettings();
  return globalForSettings.toolscopeAccessSettings;
}

export function resetAccessSettings(next?: AccessSettings): void {
  globalForSettings.toolscopeAccessSettings = next;
}

/** A listen address that only this machine can reach. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || (isIP(bare) === 4 && bare.startsWith("127."));
}

/**
 * Why the server may not listen on `host` with these settings, or null. Local mode listens on loopback only:
 * anything else would hand every stored result to whoever can reach the port.
 */
export function refuseToBind(host: string, settings: AccessSettings): string | null {
  if (settings.mode === "exposed" || isLoopbackAddress(host)) return null;
  return [
    `Refusing to listen on ${host}: Toolscope has no access control configured, and on ${host} anyone who can reach the port could read every stored tool result and write into it.`,
    "Ways forward:",
    "  • keep it on this machine: unset HOST (the default listens on 127.0.0.1 and ::1), or HOST=127.0.0.1;",
    `  • expose it with access control: set TOOLSCOPE_SECRET to ${MIN_SECRET_LENGTH}+ random characters (openssl rand -base64 32) and TOOLSCOPE_PUBLIC_URL to the URL users open, then create the first user with \`npm run toolscope -- users create --email … --password …\` (docs/security.md);`,
    "  • or keep it on loopback and reach it through an SSH tunnel (ssh -L 3000:127.0.0.1:3000 host).",
  ].join("\n");
}

/** The host name of a Host header value ("example.com:3000" → "example.com", "[::1]:3000" → "::1"). */
export function hostHeaderName(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname
      .replace(/^\[|\]$/g, "")
      .replace(/\.$/, "")
      .toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Whether a request's Host header names this server: a loopback name, an IP literal (a browser sends one only
 * for a page loaded from that very address, so it cannot carry a rebinding attack), or a configured name.
 */
export function isAllowedHost(host: string | null, settings: AccessSettings): boolean {
  if (host === null || host === "") return false;
  const name = hostHeaderName(host);
  if (name === null) return false;
  return (
    LOOPBACK_NAMES.has(name) || name.endsWith(".localhost") || isIP(name) !== 0 || settings.allowedHosts.includes(name)
  );
}
