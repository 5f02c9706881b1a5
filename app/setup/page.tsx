// /setup?token=… – one-time creation of the first admin (exposed mode, while no user exists).
import type { Metadata } from "next";
import Link from "next/link";
import { SetupForm } from "@/components/access/setup-form.tsx";
import { MIN_PASSWORD_LENGTH } from "@/lib/access/auth.ts";
import { setupIsOpen } from "@/lib/access/users.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up" };

export default async function SetupPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await searchParams;
  if (!(await setupIsOpen())) {
    return (
      <div className="auth-page">
        <h1>Setup is closed</h1>
        <p className="muted">Either a user exists already or Toolscope runs in local mode (no sign-in).</p>
        <Link href="/sign-in">Sign in</Link>
      </div>
    );
  }
  return (
    <div className="auth-page">
      <h1>Create the first admin</h1>
      {typeof token === "string" && token !== "" ? (
        <SetupForm token={token} minPasswordLength={MIN_PASSWORD_LENGTH} />
      ) : (
        <p className="notice notice-warn">
          Open the setup link the server printed when it started (it carries a one-time token).
        </p>
      )}
    </div>
  );
}
