"use client";
// The last resort: the root layout itself failed, so this page brings its own <html> and a plain navigation
// (links only: nothing here may depend on the code that just failed).
/* eslint-disable @next/next/no-html-link-for-pages -- plain links on purpose: a full page load, not the client router that may be what failed */
import "./globals.css";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/threads", label: "Threads" },
  { href: "/pending", label: "Pending calls" },
  { href: "/deliveries", label: "Deliveries" },
] as const;

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <div className="app-shell">
          <header className="app-header">
            <a href="/" className="brand">
              <span className="brand-mark" aria-hidden="true" />
              Toolscope
            </a>
            <nav className="main-nav" aria-label="Main">
              {LINKS.map((link) => (
                <a key={link.href} href={link.href}>
                  {link.label}
                </a>
              ))}
            </nav>
          </header>
          <main className="page" id="main">
            <div className="card error-page" role="alert">
              <h1>Toolscope could not draw this page</h1>
              <p>
                The page frame itself failed{error.digest ? "" : `: ${error.message}`}. Stored traces are untouched.
              </p>
              {error.digest ? (
                <p className="muted small">
                  Reference <code>{error.digest}</code> — the same id is in the server&apos;s log.
                </p>
              ) : null}
              <button type="button" className="button button-primary" onClick={() => reset()}>
                Try again
              </button>
            </div>
          </main>
        </div>
      </body>
    </html>
  );
}
