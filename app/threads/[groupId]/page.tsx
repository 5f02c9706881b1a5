// /threads/{groupId} – one thread's timeline: the first page rendered on the server, the rest streamed in by the client.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ForkLinks } from "@/components/forks/fork-links.tsx";
import { ThreadHeader } from "@/components/thread/thread-header.tsx";
import { ThreadTimeline } from "@/components/thread/thread-timeline.tsx";
import { getForkLinks } from "@/lib/forks/service.ts";
import { getThreadSummary, getTimelinePage } from "@/lib/threads/service.ts";

export const dynamic = "force-dynamic";

/** Enough events for the first screens (the server renders ~20 rows); later pages load as the reader scrolls. */
const FIRST_PAGE = 150;

type Params = Promise<{ groupId: string }>;

// Page params arrive as the raw path segment (route handlers get them decoded): "team%20a%2Frun" → "team a/run".
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const groupId = decodeSegment((await params).groupId);
  return { title: `Thread ${groupId.slice(0, 80)}` };
}

export default async function ThreadPage({ params }: { params: Params }) {
  const groupId = decodeSegment((await params).groupId);
  const summary = await getThreadSummary({ groupId });
  if (!summary) notFound();
  const [firstPage, forkLinks] = await Promise.all([getTimelinePage({ groupId, after: 0, limit: FIRST_PAGE }), getForkLinks({ groupId })]);
  return (
    <>
      <ThreadHeader summary={summary} />
      <ForkLinks groupId={summary.groupId} links={forkLinks} />
      <ThreadTimeline groupId={summary.groupId} initialPage={firstPage} />
    </>
  );
}
