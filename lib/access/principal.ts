// Who made a request, as the access check established it. Client-safe: pages and the audit log show it.
export type Principal =
  /** Local mode (no TOOLSCOPE_SECRET): a loopback client, or a command run on this machine. */
  | { kind: "local"; label: string }
  /** A signed-in dashboard user. */
  | { kind: "user"; id: string; label: string }
  /** A program holding an API key of one scope. */
  | { kind: "key"; id: string; label: string; scope: "ingest" | "read" | "admin" }
  /** A tool that proved it knows the callback secret (Standard Webhooks signature). */
  | { kind: "webhook"; label: string }
  /** Exposed mode, a public endpoint (health, OpenAPI, first-user setup) called without a credential. */
  | { kind: "anonymous"; label: "anonymous" };

export const LOCAL_PRINCIPAL: Principal = { kind: "local", label: "local" };
export const ANONYMOUS_PRINCIPAL: Principal = { kind: "anonymous", label: "anonymous" };

/** How an audit row names who did something: "user:ada@example.com", "key:ci-runner", "local". */
export function describePrincipal(principal: Principal): string {
  return principal.kind === "local" || principal.kind === "anonymous"
    ? principal.label
    : `${principal.kind}:${principal.label}`;
}
