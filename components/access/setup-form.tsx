"use client";
// The one-time setup form: creates the first admin with the token from the server log, then signs them in.
import type { FormEvent } from "react";
import { sendJson } from "@/components/ui/fetch-json.ts";
import { FormError, useApiMutation } from "@/components/ui/use-api-mutation.tsx";

async function createFirstAdmin({ token, form }: { token: string; form: FormData }): Promise<void> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  await sendJson("POST", "/api/setup", { token, email, password, name: String(form.get("name") ?? "") || undefined });
  await sendJson("POST", "/api/auth/sign-in/email", { email, password, rememberMe: true });
}

export function SetupForm({ token, minPasswordLength }: { token: string; minPasswordLength: number }) {
  const setup = useApiMutation({
    mutationFn: createFirstAdmin,
    // A full page load: the router's cache still holds the pages prefetched before, as redirects.
    onSuccess: () => window.location.replace(new URL("/settings/access", window.location.origin).href),
    busyAfterSuccess: true,
  });
  const { busy, error } = setup;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setup.run({ token, form: new FormData(event.currentTarget) });
  }

  return (
    <form className="card auth-form" onSubmit={submit}>
      <FormError error={error} />
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
