"use client";
// Signs out: Better Auth deletes the session row and clears the cookie; then the sign-in page.
import { useState } from "react";
import { sendJson } from "@/components/ui/fetch-json.ts";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    try {
      await sendJson("POST", "/api/auth/sign-out", {});
    } finally {
      // A full page load: the router's cache still holds the pages prefetched before, as redirects.
      window.location.replace(new URL("/sign-in", window.location.origin).href);
    }
  }
  return (
    <button className="button" type="button" onClick={() => void signOut()} disabled={busy}>
      Sign out
    </button>
  );
}
