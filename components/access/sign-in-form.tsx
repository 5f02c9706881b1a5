"use client";
// The sign-in form: email + password to Better Auth's endpoint (it sets the HttpOnly session cookie), then on
// to the page the visitor asked for.
import { useState, type FormEvent } from "react";
import { sendJson } from "@/components/ui/fetch-json.ts";
import { safeNextPath } from "./safe-next.ts";

export function SignInForm({ next }: { next: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await sendJson("POST", "/api/auth/sign-in/email", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        rememberMe: true,
      });
      // A full page load: the router's cache still holds the pages prefetched before, as redirects.
      // `next` comes from the URL: only a page of this origin (safe-next.ts).
      window.location.replace(new URL(safeNextPath(next, window.location.origin), window.location.origin).href);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Sign-in failed");
      setBusy(false);
    }
  }

  return (
    <form className="card auth-form" onSubmit={submit}>
      {error ? (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      ) : null}
      <label className="field">
        <span>Email</span>
        <input className="input" name="email" type="email" autoComplete="username" required />
      </label>
      <label className="field">
        <span>Password</span>
        <input className="input" name="password" type="password" autoComplete="current-password" required />
      </label>
      <button className="button button-primary" type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
