// A thread link that names no thread (yet): say so, and how a thread comes to exist.
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state.tsx";

export default function ThreadNotFound() {
  return (
    <EmptyState title="No such thread">
      <p>
        A thread appears when the runtime posts its first event with this <code>group_id</code>.{" "}
        <Link href="/threads">All threads</Link>
      </p>
    </EmptyState>
  );
}
