"use client";
// On a thread page: its results held at breakpoints right now, live (nothing when none is).
import Link from "next/link";
import type { HeldPage } from "@/lib/relay/schemas.ts";
import { CallLink } from "../ui/entity-links.tsx";
import { useLiveQuery } from "../ui/use-live-query.ts";

export function ThreadHeldNotice({ groupId, initial }: { groupId: string; initial: HeldPage }) {
  const { data } = useLiveQuery({
    queryKey: ["held", "thread", groupId],
    path: `/api/held?group=${encodeURIComponent(groupId)}`,
    initialData: initial,
  });
  if (data.held.length === 0) return null;
  return (
    <p className="notice notice-warn" role="status" data-testid="thread-held">
      {data.held.length} result{data.held.length === 1 ? " is" : "s are"} held at a breakpoint before reaching the
      runtime:{" "}
      {data.held.map((hold, index) => (
        <span key={hold.id}>
          {index > 0 ? ", " : ""}
          {hold.toolCallId ? <CallLink callRowId={hold.toolCallId} callKey={hold.callKey} /> : hold.callKey}
        </span>
      ))}{" "}
      — <Link href="/held">decide on the Held page</Link>.
    </p>
  );
}
