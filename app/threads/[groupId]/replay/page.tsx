// /threads/{groupId}/replay – step through a thread and see the message history a model could see at each step.
// ?step=N&vendor=… open at that step and encoding (default: the last step, in the thread's own encoding);
// ?call=<call id> opens right after that call's result ("replay at this step" from a call page). The
// server renders that one step and sends only what the page shows.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ExportButton } from "@/components/export/export-button.tsx";
import { ReplayViewer } from "@/components/replay/replay-viewer.tsx";
import { SecretsPanel } from "@/components/secrets/secrets-panel.tsx";
import { threadHref } from "@/components/ui/hrefs.ts";
import { AppError } from "@/lib/http/app-error.ts";
import { REPLAY_VENDORS, type ReplayVendorName } from "@/lib/traces/schemas.ts";
import { getReplayStep } from "@/lib/traces/service.ts";

export const dynamic = "force-dynamic";

type Params = Promise<{ groupId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { groupId } = await params;
  return { title: `Replay ${decodeSegment(groupId).slice(0, 80)}` };
}

// Page params arrive as the raw path segment: "team%20a%2Frun" → "team a/run" (a malformed escape stays as is).
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function Replay({
  groupId,
  step,
  call,
  vendor,
}: {
  groupId: string;
  step: number | undefined;
  call: string | undefined;
  vendor: ReplayVendorName | undefined;
}) {
  const view = await getReplayStep({ groupId, step, call, vendor }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  return (
    <>
      <p className="page-description small replay-summary">
        <span className="mono">{view.title ?? view.groupId}</span>
        {view.format ? ` · imported from ${view.format}` : view.vendor ? ` · ${view.vendor}` : ""} ·{" "}
        {view.total.toLocaleString("en-US")} timeline events
      </p>
      <ReplayViewer initial={view} />
      <SecretsPanel secrets={view.secrets} scopes={[{ kind: "thread", id: view.groupId }]} anchorId="masked-values" />
    </>
  );
}

function ReplaySkeleton() {
  return (
    <div aria-busy="true" className="replay">
      <p className="small muted" role="status">
        Rendering the history…
      </p>
      <div className="card skeleton-block replay-skeleton" />
    </div>
  );
}

export default async function ReplayPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const groupId = decodeSegment((await params).groupId);
  const query = await searchParams;
  const requested = Number(single(query.step));
  const step =
    single(query.step) !== undefined && Number.isInteger(requested) && requested >= 0 ? requested : undefined;
  const vendor = REPLAY_VENDORS.find((name) => name === single(query.vendor));
  return (
    <>
      <nav className="breadcrumbs small" aria-label="Breadcrumbs">
        <Link href="/threads">Threads</Link> <span aria-hidden="true">/</span>{" "}
        <Link href={threadHref(groupId)}>{groupId}</Link> <span aria-hidden="true">/</span>
      </nav>
      <div className="page-header">
        <div className="page-title">
          <h1>Replay</h1>
        </div>
        <div className="page-actions">
          <Link className="button" href={threadHref(groupId)}>
            Thread
          </Link>
          <ExportButton groupId={groupId} />
        </div>
      </div>
      <Suspense fallback={<ReplaySkeleton />}>
        <Replay groupId={groupId} step={step} call={single(query.call)?.slice(0, 500)} vendor={vendor} />
      </Suspense>
    </>
  );
}
