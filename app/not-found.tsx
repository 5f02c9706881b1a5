// The app-wide "not found" (HTTP 404): an unknown address, or a thread or call that does not exist. Rendered
// inside the root layout, so the navigation stays.
import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <div className="card error-page">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address: the link may be mistyped, or the thread or call it named does not exist (or was
        deleted).
      </p>
      <p className="error-actions">
        <Link href="/">Overview</Link>
        <Link href="/threads">All threads</Link>
        <Link href="/pending">Pending calls</Link>
      </p>
    </div>
  );
}
