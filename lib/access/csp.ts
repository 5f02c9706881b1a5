// The pages' Content-Security-Policy: scripts only from this origin and with this response's nonce (Next puts
// it on its own bootstrap and inline scripts), no 'unsafe-inline' scripts. Pages render untrusted tool output
// as text only; the CSP is the second fence behind that rule.
export function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonced bootstrap loads (Next's chunks) run; nothing else does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    // Inline style attributes (React's style prop) stay allowed: styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** 128 random bits, base64: a fresh one for every page response. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
