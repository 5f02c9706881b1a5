"use client";
// The one-time setup form: creates the first admin with the token from the server log, then signs them in.
import { useState, type FormEvent } from "react";
import { sendJson } from "@/components/ui/fetch-json.ts";

export function SetupForm({ token, minPasswordLength }: { token: string; minPasswordLength: number }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    try {
      await sendJson("POST", "/api/setup", {
        token,
        email,
        password,
        name: String(form.get("name") ?? "") || undefined,
      });
      await sendJson("POST", "/api/auth/sign-in/email", { email, password, rememberMe: true });
      // A full page load: the router's cache still holds the pages prefetched before, as redirects.
      window.location.replace(new URL("/settings/access", window.location.origin).href);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Setup failed");
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
        <span>Name</span>
        <input className="input" name="name" autoComplete="name" />
      </label>
      <label className="field">
        <span>Email</span>
        <input className="input" name="email" type="email" autoComplete="username" required />
      </label>
      <label className="field">
        <span>Password (at least {minPasswordLength} characters)</span>
        <input
          className="input"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={minPasswordLength}
          required
        />
      </label>
      <button className="button button-primary" type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create the first admin"}
      </button>
    </form>
  );
}
