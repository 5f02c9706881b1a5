// /threads – every thread by last activity: search, filters and the keyset cursor all live in the URL.
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { UploadControl } from "@/components/import/upload-control.tsx";
import { ThreadFilters } from "@/components/thread/thread-filters.tsx";
import { ThreadsLive } from "@/components/thread/threads-live.tsx";
import { EmptyState, FirstTraceHelp } from "@/components/ui/empty-state.tsx";
import { AppError } from "@/lib/http/app-error.ts";
import { parseQuery } from "@/lib/http/query.ts";
import {
  threadListQuerySchema,
  type ThreadFilters as Filters,
  type ThreadListPage,
  type ThreadListQuery,
} from "@/lib/threads/schemas.ts";
import { listThreads } from "@/lib/threads/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Threads" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function pageHref(filters: Filters, cursor: { after?: string; before?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...cursor }))
    if (typeof value === "string" && value !== "") params.set(key, value);
  const query = params.toString();
  return query ? `/threads?${query}` : "/threads";
}

async function load(
  raw: Record<string, string | string[] | undefined>,
): Promise<{ query: ThreadListQuery; page: ThreadListPage; problem: string | null }> {
  let query: ThreadListQuery = {};
  try {
    query = parseQuery(threadListQuerySchema, raw);
    return { query, page: await listThreads({ query }), problem: null };
  } catch (error) {
    // A hand-edited or stale link: say what was wrong and show the first page with the filters that did parse.
    if (!(error instanceof AppError) || error.code !== "invalid") throw error;
    const { after: _after, before: _before, ...filters } = query;
    return { query: filters, page: await listThreads({ query: filters }), problem: error.message };
  }
}

export default async function ThreadsPage({ searchParams }: { searchParams: SearchParams }) {
  const { query, page, problem } = await load(await searchParams);
  const { after: _after, before: _before, limit: _limit, ...filters } = query;
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const host = (await headers()).get("host");

  return (
    <>
      <div className="page-header">
        <h1>Threads</h1>
        <p>Every conversation Toolscope has seen, most recently active first.</p>
      </div>
      <details className="card import-panel">
        <summary>Import a transcript (Anthropic, OpenAI, Gemini, MCP, agent stream, Toolscope export)</summary>
        <UploadControl />
      </details>
      <ThreadFilters filters={filters} />
      {problem ? (
        <p className="notice notice-warn" role="alert">
          {problem}
        </p>
      ) : null}
      {page.threads.length === 0 ? (
        filtered ? (
          <EmptyState title="No threads match these filters">
            <p>
              <Link href="/threads">Clear the filters</Link> to see every thread.
            </p>
          </EmptyState>
        ) : (
          <EmptyState title="No threads yet">
            <FirstTraceHelp origin={host ? `http://${host}` : undefined} />
          </EmptyState>
        )
      ) : (
        <ThreadsLive
          initial={page}
          filters={filters}
          page={query.after ? `after:${query.after}` : query.before ? `before:${query.before}` : "live"}
        />
      )}
      {page.prevCursor || page.nextCursor ? (
        <nav className="pager" aria-label="Pages">
          {page.prevCursor ? (
            <Link className="button" href={pageHref(filters, { before: page.prevCursor })} rel="prev">
              ← Newer
            </Link>
          ) : (
            <span className="button" aria-disabled="true">
              ← Newer
            </span>
          )}
          {page.nextCursor ? (
            <Link className="button" href={pageHref(filters, { after: page.nextCursor })} rel="next">
              Older →
            </Link>
          ) : (
            <span className="button" aria-disabled="true">
              Older →
            </span>
          )}
        </nav>
      ) : null}
    </>
  );
}
