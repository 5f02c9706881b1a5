"use client";
// The app-wide error page: a page whose server render or client code failed. It replaces only the page (the root
// layout and its navigation stay), says what happened, and offers to try again. A server error's message is
// hidden from the browser in production; its digest is the id the server logged it under.
import Link from "next/link";
import { useEffect } from "react";

export default function AppError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="card error-page" role="alert">
      <h1>This page could not be shown</h1>
      <p>
        {error.digest
          ? "The server failed while reading this page's data. Nothing you sent was lost: stored traces are untouched."
          : `The page failed in the browser: ${error.message}`}
      </p>
      {error.digest ? (
        <p className="muted small">
          Reference <code>{error.digest}</code> — the same id is in the server&apos;s log, next to the cause.
        </p>
      ) : null}
      <p className="error-actions">
        <button type="button" className="button button-primary" onClick={() => reset()}>
          Try again
        </button>
        <Link href="/">Overview</Link>
        <Link href="/threads">All threads</Link>
      </p>
    </div>
  );
}
