// /threads/{groupId}/fork – a fork's run: the model's answers as they stream in, its calls and their answers, Continue.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ForkRun } from "@/components/forks/fork-run.tsx";
import { threadHref } from "@/components/ui/hrefs.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { getFork } from "@/lib/forks/service.ts";
import { AppError } from "@/lib/http/app-error.ts";

export const dynamic = "force-dynamic";

type Params = Promise<{ groupId: string }>;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Fork run ${decodeSegment((await params).groupId).slice(0, 80)}` };
}

export default async function ForkRunPage({ params }: { params: Params }) {
  const groupId = decodeSegment((await params).groupId);
  const fork = await getFork({ groupId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  return (
    <>
      <nav className="breadcrumbs small" aria-label="Breadcrumbs">
        <Link href="/threads">Threads</Link> <span aria-hidden="true">/</span>{" "}
        <Link className="mono" href={threadHref(fork.groupId)}>
          {presentUntrustedText(fork.groupId)}
        </Link>{" "}
        <span aria-hidden="true">/</span>
      </nav>
      <div className="page-header">
        <div className="page-title">
          <h1>Fork run</h1>
          <p className="page-description small mono">{presentUntrustedText(fork.groupId)}</p>
        </div>
      </div>
      <ForkRun initial={fork} />
    </>
  );
}
