"use client";
// Signs out: Better Auth deletes the session row and clears the cookie; then the sign-in page.
import { sendJson } from "@/components/ui/fetch-json.ts";
import { useApiMutation } from "@/components/ui/use-api-mutation.tsx";

// A full page load: the router's cache still holds the pages prefetched before, as redirects.
const toSignIn = () => window.location.replace(new URL("/sign-in", window.location.origin).href);

export function SignOutButton() {
  // Whatever the answer, the person asked to leave: the sign-in page either way (it says if a session remains).
  const signOut = useApiMutation({
    mutationFn: () => sendJson("POST", "/api/auth/sign-out", {}).finally(toSignIn),
    busyAfterSuccess: true,
  });
  return (
    <button className="button" type="button" onClick={() => signOut.run()} disabled={signOut.busy}>
      Sign out
    </button>
  );
}
