// /calls – the calls explorer: every call across threads, filtered, searched and sorted, with its verdict.
// All state is in the URL (filters, sort, keyset cursor); the table streams in under a skeleton.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { CallsFilters } from "@/components/explorer/calls-filters.tsx";
import { CallsTable, CallsTableSkeleton } from "@/components/explorer/calls-table.tsx";
import "@/components/explorer/explorer.css";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { AppError } from "@/lib/http/app-error.ts";
import { parseQueryLenient } from "@/lib/http/query.ts";
import {
  explorerHref,
  explorerQuerySchema,
  type ExplorerFilters,
  type ExplorerQuery,
  type ExplorerSearch,
} from "@/lib/explorer/schemas.ts";
import { exploreCalls, listToolNames } from "@/lib/explorer/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Calls" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function ToolNames() {
  const tools = await listToolNames();
  return (
    <datalist id="explorer-tools">
      {tools.map((tool) => (
        <option key={tool} value={tool} />
      ))}
    </datalist>
  );
}

/** What a search of a common word did: how common it is, and where a time-boxed walk stopped. */
function SearchNote({ search, hasNext }: { search: ExplorerSearch | undefined; hasNext: boolean }) {
  if (search === undefined) return null;
  const common = search.words.filter((word) => word.more);
  if (common.length === 0 && search.stoppedAfter === null) return null;
  return (
    <p className="notice notice-warn" role="status" data-testid="explorer-search-note">
      {common.map((word) => (
        <span key={word.word}>
          More than {word.matches.toLocaleString("en-US")} texts hold “{word.word}” — add a filter (tool, status, a time
          range) to narrow the search.{" "}
        </span>
      ))}
      {search.stoppedAfter !== null ? (
        <span data-testid="explorer-search-stopped">
          Searched {search.stoppedAfter.toLocaleString("en-US")} calls in this order and stopped to answer in time
          {hasNext ? ": “Search further” goes on from there." : "."}
        </span>
      ) : null}
    </p>
  );
}

async function Results({ query, filters }: { query: ExplorerQuery; filters: ExplorerFilters }) {
  let page;
  try {
    page = await exploreCalls(query);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "invalid") throw error;
    return (
      <p className="notice notice-warn" role="alert">
        {error.message}
      </p>
    );
  }
  const filtered = Object.values(filters).some((value) => value !== undefined);
  if (page.items.length === 0 && page.search?.stoppedAfter == null) {
    return (
      <EmptyState title={query.cursor ? "No more calls" : filtered ? "No calls match" : "No calls yet"}>
        <p>{filtered ? <Link href="/calls">Clear the filters</Link> : "Calls appear here as agents report them."}</p>
      </EmptyState>
    );
  }
  const base = {
    ...filters,
    sort: query.sort === "newest" ? undefined : query.sort,
  };
  return (
    <>
      <SearchNote search={page.search} hasNext={page.nextCursor !== null} />
      <CallsTable items={page.items} filters={filters} />
      <nav className="pager" aria-label="Pages">
        {query.cursor ? (
          <Link className="button" href={explorerHref(base)}>
            ← First page
          </Link>
        ) : null}
        {page.nextCursor ? (
          <Link
            className="button"
            href={explorerHref({ ...base, cursor: page.nextCursor })}
            rel="next"
            data-testid="explorer-next"
          >
            {page.search?.stoppedAfter != null ? "Search further →" : "Next page →"}
          </Link>
        ) : (
          <span className="small muted">End of the list.</span>
        )}
      </nav>
    </>
  );
}

export default async function CallsPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const { query, ignored } = parseQueryLenient(explorerQuerySchema, raw);
  const { sort, cursor: _cursor, limit: _limit, ...filters } = query;
  const sortNote =
    sort === "slowest" || sort === "fastest"
      ? " Sorted by latency — the tool-reported duration when the tool sent one, else the observed time; calls without a result are left out."
      : sort.startsWith("confidence")
        ? " Sorted by confidence: calls without one are left out."
        : "";
  // The filter form and the results remount when the query changes (fresh field values, a fresh skeleton). Their keys
  // must differ: two siblings under one key left every earlier filter form on screen after a client navigation.
  const view = JSON.stringify(query);
  return (
    <>
      <PageHeader
        title="Calls"
        description={<>Every tool call across threads, with the verdict of its newest result.{sortNote}</>}
      />
      <CallsFilters key={`filters:${view}`} filters={filters} sort={sort} />
      <Suspense fallback={null}>
        <ToolNames />
      </Suspense>
      {ignored.length > 0 ? (
        <p className="notice notice-warn" role="alert">
          Ignored {ignored.length === 1 ? "a parameter" : "parameters"} that could not be read: {ignored.join(", ")}.
        </p>
      ) : null}
      <Suspense key={`results:${view}`} fallback={<CallsTableSkeleton searching={query.q} />}>
        <Results query={query} filters={filters} />
      </Suspense>
    </>
  );
}
