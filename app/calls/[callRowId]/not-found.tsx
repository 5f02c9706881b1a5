// A call link that names no call.
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state.tsx";

export default function CallNotFound() {
  return (
    <EmptyState title="No such call">
      <p>
        This call does not exist in this Toolscope database. <Link href="/threads">All threads</Link>
      </p>
    </EmptyState>
  );
}
