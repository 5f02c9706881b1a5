// /threads/{groupId} – one thread: its header at once, then (streamed) a window of its timeline — from the
// start, or around ?call=<id> / ?step=<n> / ?event=<id>, under ?q= / ?only=, as rows or ?view=waterfall (zoomed
// to ?wf=<from>-<to>) — that the client moves from there, writing the same parameters back as the reader goes.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ForkLinks } from "@/components/forks/fork-links.tsx";
import { ThreadHeader } from "@/components/thread/thread-header.tsx";
import { ThreadTimeline } from "@/components/thread/thread-timeline.tsx";
import { TimelineSkeleton } from "@/components/thread/timeline-skeleton.tsx";
import { parseZoom } from "@/components/thread/waterfall-scale.ts";
import { getForkLinks } from "@/lib/forks/service.ts";
import { ThreadHeldNotice } from "@/components/relay/thread-held-notice.tsx";
import { getHeldPage } from "@/lib/relay/holds-service.ts";
import { threadPageQuerySchema } from "@/lib/threads/schemas.ts";
import { getThreadSummary, getTimelinePage, locateInThread } from "@/lib/threads/service.ts";

export const dynamic = "force-dynamic";

/** Enough events for the first screens (the server renders ~20 rows); more load as the reader scrolls. */
const FIRST_PAGE = 150;

type Params = Promise<{ groupId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

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

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

async function ThreadBody({
  groupId,
  searchParams,
}: {
  groupId: string;
  searchParams: Record<string, string | string[] | undefined>;
}) {
  // A link with a bad parameter still opens the thread (from the start) rather than failing.
  const parsed = threadPageQuerySchema.safeParse(
    Object.fromEntries(Object.entries(searchParams).map(([key, value]) => [key, first(value)])),
  );
  const query = parsed.success ? parsed.data : {};
  const filter = { q: query.q, only: query.only };
  let target: number | null = query.event ?? null;
  if (target === null && (query.call !== undefined || query.step !== undefined)) {
    target = (
      await locateInThread({ groupId, query: query.call !== undefined ? { call: query.call } : { step: query.step } })
    ).eventId;
  }
  const [firstPage, forkLinks] = await Promise.all([
    target === null
      ? getTimelinePage({ groupId, after: 0, limit: FIRST_PAGE, ...filter })
      : getTimelinePage({ groupId, around: target, limit: FIRST_PAGE * 2, ...filter }),
    getForkLinks({ groupId }),
  ]);
  return (
    <>
      <ForkLinks groupId={groupId} links={forkLinks} />
      <ThreadTimeline
        groupId={groupId}
        initialPage={firstPage}
        initialFilter={filter}
        initialTarget={target}
        initialView={first(searchParams.view) === "waterfall" ? "waterfall" : "rows"}
        initialZoom={parseZoom(first(searchParams.wf))}
      />
    </>
  );
}

export default async function ThreadPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const groupId = decodeSegment((await params).groupId);
  const [summary, held] = await Promise.all([getThreadSummary({ groupId }), getHeldPage({ groupId })]);
  if (!summary) notFound();
  // One scroller: .thread-page fills what the viewport leaves under the app header, the timeline the rest of it.
  return (
    <div className="thread-page">
      <ThreadHeader summary={summary} />
      <ThreadHeldNotice groupId={summary.groupId} initial={held} />
      <Suspense fallback={<TimelineSkeleton />}>
        <ThreadBody groupId={summary.groupId} searchParams={await searchParams} />
      </Suspense>
    </div>
  );
}
