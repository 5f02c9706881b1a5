// A thread's fork links, shown on its page: the thread it was forked from, the forks made from it, and the way to fork it.
import Link from "next/link";
import { replayHref } from "@/components/replay/trace-hrefs.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { FORK_STATUS_LABELS, type ForkLinksView as ForkLinksData } from "@/lib/forks/schemas.ts";
import { forkPageHref, newForkHref } from "./fork-api.ts";
import "./forks.css";

export function ForkLinks({ groupId, links }: { groupId: string; links: ForkLinksData }) {
  return (
    <section className="fork-links" aria-label="Forks">
      <Link className="button" href={newForkHref(groupId)}>
        Fork and re-run…
      </Link>
      {links.forkOf !== null ? (
        <span data-testid="fork-of">
          Fork of{" "}
          {links.forkOf.exists ? (
            <Link className="mono" href={replayHref(links.forkOf.groupId, { step: links.forkOf.atStep })}>
              {presentUntrustedText(links.forkOf.groupId)}
            </Link>
          ) : (
            <span className="mono">{presentUntrustedText(links.forkOf.groupId)}</span>
          )}{" "}
          at step {links.forkOf.atStep} · <Link href={forkPageHref(groupId)}>fork run</Link>
        </span>
      ) : null}
      {links.forks.length > 0 ? (
        <span data-testid="forks-of-thread">
          {links.forks.length} fork{links.forks.length === 1 ? "" : "s"}:{" "}
          {links.forks.slice(0, 5).map((fork, index) => (
            <span key={fork.groupId}>
              {index > 0 ? ", " : ""}
              <Link className="mono" href={forkPageHref(fork.groupId)}>
                {presentUntrustedText(fork.groupId)}
              </Link>{" "}
              <span className="small muted">
                (step {fork.atStep} → {fork.target}, {FORK_STATUS_LABELS[fork.status]}
                {fork.totalTokens !== null ? `, ${fork.totalTokens.toLocaleString("en-US")} tokens` : ""})
              </span>
            </span>
          ))}
          {links.forks.length > 5 ? ` and ${links.forks.length - 5} more` : ""}
        </span>
      ) : null}
    </section>
  );
}
