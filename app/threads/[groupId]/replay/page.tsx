// /threads/{groupId}/replay – step through a thread and see the message history a model could see at each step.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ExportButton } from "@/components/export/export-button.tsx";
import { ReplayViewer } from "@/components/replay/replay-viewer.tsx";
import { threadHref } from "@/components/ui/hrefs.ts";
import { AppError } from "@/lib/http/app-error.ts";
import { REPLAY_VENDORS, type ReplayVendorName } from "@/lib/traces/schemas.ts";
import { getReplayTrace } from "@/lib/traces/service.ts";

export const dynamic = "force-dynamic";

type Params = Promise<{ groupId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { groupId } = await params;
  return { title: `Replay ${groupId.slice(0, 80)}` };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function vendorOf(value: string | undefined, fallback: string | null): ReplayVendorName {
  const wanted = value ?? fallback ?? "anthropic";
  return REPLAY_VENDORS.find((vendor) => vendor === wanted) ?? "anthropic";
}

export default async function ReplayPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { groupId } = await params;
  const query = await searchParams;
  const trace = await getReplayTrace({ groupId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  const requested = Number(single(query.step));
  const step = Number.isInteger(requested) && requested >= 0 ? Math.min(requested, trace.events.length) : trace.events.length;
  return (
    <>
      <nav className="breadcrumbs small" aria-label="Breadcrumbs">
        <Link href="/threads">Threads</Link> <span aria-hidden="true">/</span> <Link href={threadHref(trace.groupId)}>{trace.groupId}</Link>{" "}
        <span aria-hidden="true">/</span>
      </nav>
      <div className="page-header">
        <div className="page-title">
          <h1>Replay</h1>
          <p className="page-description small">
            <span className="mono">{trace.title ?? trace.groupId}</span>
            {trace.format ? ` · imported from ${trace.format}` : trace.vendor ? ` · ${trace.vendor}` : ""} · {trace.events.length.toLocaleString("en-US")} timeline
            events
          </p>
        </div>
        <div className="page-actions">
          <Link className="button" href={threadHref(trace.groupId)}>
            Thread
          </Link>
          <ExportButton groupId={trace.groupId} />
        </div>
      </div>
      <ReplayViewer trace={trace} initialStep={step} initialVendor={vendorOf(single(query.vendor), trace.format)} />
    </>
  );
}
