// /calls/{callRowId} – one call and everything that came back for it: results (display segments, raw text,
// envelope, MCP, schema, flags) and the deliveries that reached it. Live while results may still arrive.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SpanPanel } from "@/components/otel/span-panel.tsx";
import { CallOverview } from "@/components/result/call-overview.tsx";
import { DeliveriesTable } from "@/components/result/deliveries-table.tsx";
import { LiveRefresh } from "@/components/result/live-refresh.tsx";
import { OAuthRequests } from "@/components/result/oauth-requests.tsx";
import { ResultCard } from "@/components/result/result-card.tsx";
import { SecretsPanel } from "@/components/secrets/secrets-panel.tsx";
import { VerdictPanel } from "@/components/result/verdict-panel.tsx";
import "@/components/explorer/explorer.css";
import { newForkHref } from "@/components/forks/fork-api.ts";
import { threadHref } from "@/components/ui/hrefs.ts";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { rowIdSchema, type CallDetail } from "@/lib/calls/schemas.ts";
import { getCallDetail } from "@/lib/calls/service.ts";
import { getReplayStep } from "@/lib/explorer/service.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { AppError } from "@/lib/http/app-error.ts";
import { getCallSpans } from "@/lib/otel/service.ts";
import { CallInPathPanel } from "@/components/relay/call-in-path.tsx";
import { getCallInPath } from "@/lib/relay/call-in-path-service.ts";

export const dynamic = "force-dynamic";

type Params = Promise<{ callRowId: string }>;

async function load(params: Params): Promise<CallDetail> {
  const parsed = rowIdSchema.safeParse((await params).callRowId);
  if (!parsed.success) notFound();
  try {
    return await getCallDetail({ callRowId: parsed.data });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Call ${(await params).callRowId}` };
}

export default async function CallPage({ params }: { params: Params }) {
  const detail = await load(params);
  const { call } = detail;
  const [spans, replay, inPath] = await Promise.all([
    getCallSpans({ callRowId: call.id }),
    getReplayStep({ callRowId: call.id }),
    getCallInPath(call.id),
  ]);
  // A call awaiting authorization may still get its result once the user has authorized.
  const live = call.status === "pending" || call.status === "auth_required" || call.subscription === "active";
  return (
    <>
      <nav className="breadcrumbs small" aria-label="Breadcrumbs">
        <Link href="/threads">Threads</Link> <span aria-hidden="true">/</span>{" "}
        <Link href={threadHref(call.groupId)} className="mono">
          {presentUntrustedText(call.groupId)}
        </Link>{" "}
        <span aria-hidden="true">/</span> <span className="mono">{presentUntrustedText(call.callKey)}</span>
        <LiveRefresh active={live} />
      </nav>
      <VerdictPanel
        status={call.status}
        toolName={call.toolName}
        latest={detail.results[detail.results.length - 1] ?? null}
        resultCount={call.resultCount}
        replay={replay}
      />
      <CallOverview call={call} events={detail.events} />
      <OAuthRequests events={detail.events} />
      <p className="small">
        <Link href={newForkHref(call.groupId, { call: call.callKey })}>Fork from this call…</Link>{" "}
        <span className="muted">— edit its result or arguments and see what a model does next</span>
      </p>

      <CallInPathPanel callRowId={call.id} initial={inPath} />

      <section className="results-section" aria-labelledby="results-title">
        <h2 id="results-title" className="section-title">
          Results <span className="muted">({call.resultCount.toLocaleString("en-US")})</span>
        </h2>
        {detail.resultsOmitted > 0 ? (
          <p className="small muted">
            The {detail.results.length} newest results are shown; {detail.resultsOmitted.toLocaleString("en-US")}{" "}
            earlier ones are not.
          </p>
        ) : null}
        {detail.results.length === 0 ? (
          <EmptyState
            title={
              call.status === "pending"
                ? "Waiting for a result"
                : call.status === "auth_required"
                  ? "Waiting for the user's authorization"
                  : "No result"
            }
          >
            <p>
              {call.status === "pending"
                ? "The tool has not posted a result for this call yet. This page updates by itself when one arrives."
                : call.status === "auth_required"
                  ? "The tool asked for the user's authorization instead of a result; it may still send one once they have authorized."
                  : "This call ended without a result."}
            </p>
          </EmptyState>
        ) : (
          detail.results.map((result) => (
            <ResultCard key={result.id} result={result} outputSchema={call.outputSchema} />
          ))
        )}
      </section>

      <SecretsPanel
        secrets={detail.secrets}
        scopes={[{ kind: "call", id: String(call.id) }]}
        anchorId="masked-values"
      />

      <section className="deliveries-section" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title" className="section-title">
          Deliveries{" "}
          <span className="muted">
            ({(detail.deliveries.length + detail.deliveriesOmitted).toLocaleString("en-US")})
          </span>
        </h2>
        <p className="small muted">Every POST to the callback route that named this call, whatever became of it.</p>
        {detail.deliveries.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <DeliveriesTable callRowId={call.id} deliveries={detail.deliveries} />
        )}
        {detail.deliveriesOmitted > 0 ? (
          <p className="small muted">
            {detail.deliveriesOmitted.toLocaleString("en-US")} more deliveries are not listed.
          </p>
        ) : null}
      </section>
      {spans ? <SpanPanel spans={spans} /> : null}
    </>
  );
}
