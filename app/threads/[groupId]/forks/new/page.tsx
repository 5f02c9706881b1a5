// /threads/{groupId}/forks/new?step=&call= – fork a thread: edit what the model saw up to step N, pick a model target, run.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ForkForm } from "@/components/forks/fork-form.tsx";
import { replayHref } from "@/components/replay/trace-hrefs.ts";
import { threadHref } from "@/components/ui/hrefs.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { listModelTargets } from "@/lib/forks/service.ts";
import { AppError } from "@/lib/http/app-error.ts";
import { SecretsPanel } from "@/components/secrets/secrets-panel.tsx";
import { getReplayTraceView } from "@/lib/traces/service.ts";

export const dynamic = "force-dynamic";

type Params = Promise<{ groupId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

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

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Fork ${decodeSegment((await params).groupId).slice(0, 80)}` };
}

export default async function NewForkPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const groupId = decodeSegment((await params).groupId);
  const query = await searchParams;
  // Masked (lib/audit/mask): the fork itself is made on the server from the exact trace; only edits come from here.
  const trace = await getReplayTraceView({ groupId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  const targets = listModelTargets();
  const call = single(query.call) ?? null;
  // From a call page: stop right after the call's result, where its edit matters.
  const resultIndex =
    call === null ? -1 : trace.events.findIndex((event) => event.kind === "tool_result" && event.callId === call);
  const callIndex =
    call === null ? -1 : trace.events.findIndex((event) => event.kind === "tool_call" && event.callId === call);
  const requested = Number(single(query.step));
  const step =
    Number.isInteger(requested) && requested >= 1
      ? requested
      : resultIndex >= 0
        ? resultIndex + 1
        : callIndex >= 0
          ? callIndex + 1
          : trace.events.length;
  return (
    <>
      <nav className="breadcrumbs small" aria-label="Breadcrumbs">
        <Link href="/threads">Threads</Link> <span aria-hidden="true">/</span>{" "}
        <Link className="mono" href={threadHref(trace.groupId)}>
          {presentUntrustedText(trace.groupId)}
        </Link>{" "}
        <span aria-hidden="true">/</span>
      </nav>
      <div className="page-header">
        <div className="page-title">
          <h1>Fork and re-run</h1>
          <p className="page-description small">
            What would the model have done if a tool had answered differently? The history up to the step (with your
            edits) is rendered in the target&apos;s encoding by the replay renderers and sent to the model; its answer
            becomes a new thread, linked to this one.
          </p>
        </div>
        <div className="page-actions">
          <Link className="button" href={replayHref(trace.groupId, { step })}>
            Replay at step {step}
          </Link>
        </div>
      </div>
      {trace.events.length === 0 ? (
        <p className="card muted">This thread has no replayable events to fork.</p>
      ) : (
        <ForkForm
          groupId={trace.groupId}
          events={trace.events}
          targets={targets.targets}
          targetsProblem={targets.problem}
          initialStep={step}
          focusCall={call}
        />
      )}
      <SecretsPanel secrets={trace.secrets} scopes={[{ kind: "thread", id: trace.groupId }]} />
    </>
  );
}
