import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { MainNav } from "@/components/layout/main-nav.tsx";
import { QueryProvider } from "@/components/providers/query-provider.tsx";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Toolscope", template: "%s · Toolscope" },
  description: "See what your agent's tools did",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <div className="app-shell">
          <header className="app-header">
            <Link href="/" className="brand">
              <span className="brand-mark" aria-hidden="true" />
              Toolscope
            </Link>
            <MainNav />
          </header>
          <main className="page">
            <QueryProvider>{children}</QueryProvider>
          </main>
        </div>
      </body>
    </html>
  );
}
