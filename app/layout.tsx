import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { headers } from "next/headers";
import { connection } from "next/server";
import { SignOutButton } from "@/components/access/sign-out-button.tsx";
import { MainNav } from "@/components/layout/main-nav.tsx";
import { sessionUser } from "@/lib/access/auth.ts";
import { accessSettings } from "@/lib/access/settings.ts";
import { QueryProvider } from "@/components/providers/query-provider.tsx";
import { ShortcutsDialog } from "@/components/layout/shortcuts-dialog.tsx";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Toolscope", template: "%s · Toolscope" },
  description: "See what your agent's tools did",
  // Static assets in public/ (favicon.ico for browsers that ask for it by name).
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "any" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: "/apple-touch-icon.png",
  },
  manifest: "/site.webmanifest",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry that response's CSP nonce (proxy.ts).
  await connection();
  // Exposed mode: the navigation is for signed-in people only (a visitor on the sign-in page sees the brand alone),
  // and the header says who is signed in, with the way out beside it.
  const exposed = accessSettings().mode === "exposed";
  const user = exposed ? await sessionUser(await headers()) : null;
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {/* The provider holds the header too: its sign-out button writes through react-query. */}
        <QueryProvider>
          <div className="app-shell">
            <header className="app-header">
              <Link href="/" className="brand">
                <span className="brand-mark" aria-hidden="true" />
                Toolscope
              </Link>
              {exposed && user === null ? null : <MainNav />}
              {user ? (
                <div className="header-user" data-testid="signed-in-as">
                  <span className="small muted">
                    Signed in as <strong>{user.email}</strong>
                  </span>
                  <SignOutButton />
                </div>
              ) : null}
            </header>
            <main className="page" id="main" tabIndex={-1}>
              {children}
            </main>
            <ShortcutsDialog />
          </div>
        </QueryProvider>
      </body>
    </html>
  );
}
