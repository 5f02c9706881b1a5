// /sign-in – exposed mode's sign-in page (local mode has none: it says so and links home).
import type { Metadata } from "next";
import Link from "next/link";
import { SignInForm } from "@/components/access/sign-in-form.tsx";
import { accessSettings } from "@/lib/access/settings.ts";
import { setupIsOpen } from "@/lib/access/users.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next } = await searchParams;
  if (accessSettings().mode === "local") {
    return (
      <div className="auth-page">
        <h1>No sign-in needed</h1>
        <p className="muted">Toolscope runs in local mode: it listens on this machine only and needs no account.</p>
        <Link href="/">Go to the overview</Link>
      </div>
    );
  }
  const noUserYet = await setupIsOpen();
  return (
    <div className="auth-page">
      <h1>Sign in to Toolscope</h1>
      {noUserYet ? (
        <p className="notice notice-warn">
          No user exists yet. Open the setup link the server printed when it started, or run{" "}
          <code>npm run toolscope -- users create --email … --password …</code>.
        </p>
      ) : null}
      <SignInForm next={typeof next === "string" ? next : null} />
    </div>
  );
}
