"use client";
// The sign-in form: email + password to Better Auth's endpoint (it sets the HttpOnly session cookie), then on
// to the page the visitor asked for.
import type { FormEvent } from "react";
import { sendJson } from "@/components/ui/fetch-json.ts";
import { FormError, useApiMutation } from "@/components/ui/use-api-mutation.tsx";
import { safeNextPath } from "./safe-next.ts";

export function SignInForm({ next }: { next: string | null }) {
  const signIn = useApiMutation({
    mutationFn: (form: FormData) =>
      sendJson("POST", "/api/auth/sign-in/email", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        rememberMe: true,
      }),
    // A full page load: the router's cache still holds the pages prefetched before, as redirects.
    // `next` comes from the URL: only a page of this origin (safe-next.ts).
    onSuccess: () =>
      window.location.replace(new URL(safeNextPath(next, window.location.origin), window.location.origin).href),
    busyAfterSuccess: true,
  });
  const { busy, error } = signIn;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    signIn.run(new FormData(event.currentTarget));
  }

  return (
    <form className="card auth-form" onSubmit={submit}>
      <FormError error={error} />
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
