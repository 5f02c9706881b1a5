// "Replay": opens the step-through replay of a thread.
import Link from "next/link";
import { replayHref } from "./trace-hrefs.ts";

export function ReplayLink({ groupId }: { groupId: string }) {
  return (
    <Link className="button" href={replayHref(groupId)} data-testid="replay-link">
      Replay
    </Link>
  );
}
