// Links to the pages behind a thread or a call, with the untrusted id as plain text (ellipsised, full id in the
// title). Row links do not prefetch: a live list of hundreds of rows must not fetch hundreds of pages.
import Link from "next/link";
import { callHref, threadHref } from "./hrefs.ts";

export function ThreadLink({ groupId }: { groupId: string }) {
  return (
    <Link href={threadHref(groupId)} prefetch={false} className="mono truncate" title={groupId}>
      {groupId}
    </Link>
  );
}

export function CallLink({ callRowId, callKey }: { callRowId: number; callKey: string }) {
  return (
    <Link href={callHref(callRowId)} prefetch={false} className="mono truncate" title={`Call ${callKey}`}>
      {callKey}
    </Link>
  );
}
