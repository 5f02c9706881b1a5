"use client";
// Upload a transcript (any supported vendor format, or a Toolscope JSONL export) to POST /api/import, then
// show what was created — or the precise error (status, code, item and field). Self-contained: no props.
import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { exportHref, replayHref } from "@/components/replay/trace-hrefs.ts";
import { threadHref } from "@/components/ui/hrefs.ts";
import { FORMAT_LABELS, IMPORT_FORMATS, type ImportFormat, type ImportResult } from "@/lib/traces/schemas.ts";
import { ApiError } from "@/components/ui/fetch-json.ts";
import { uploadTranscript } from "./upload-transcript.ts";

// Issues are listed in full up to here; a transcript with thousands of them shows a count for the rest.
const LISTED_ISSUES = 50;

function isImportFormat(value: string): value is ImportFormat {
  return IMPORT_FORMATS.some((format) => format === value);
}

export function UploadControl() {
  const ids = useId();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat | null>(null);
  const [groupId, setGroupId] = useState("");
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: uploadTranscript,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.threadLists() });
      await queryClient.invalidateQueries({ queryKey: queryKeys.overview() });
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (file === null) return;
    upload.mutate({ file, format, groupId: groupId.trim() === "" ? null : groupId.trim() });
  };

  return (
    <div className="upload-control">
      <form className="card upload-form" onSubmit={submit} aria-label="Import a transcript">
        <div className="field field-grow">
          <label className="field-label" htmlFor={`${ids}-file`}>
            Transcript file
          </label>
          <input
            id={`${ids}-file`}
            className="input"
            type="file"
            accept=".json,.jsonl,.ndjson,.txt,.sse,application/json,application/x-ndjson,text/plain,text/event-stream"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            required
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${ids}-format`}>
            Format
          </label>
          <select
            id={`${ids}-format`}
            className="input"
            value={format ?? ""}
            onChange={(event) => setFormat(isImportFormat(event.target.value) ? event.target.value : null)}
          >
            <option value="">Detect automatically</option>
            {IMPORT_FORMATS.map((name) => (
              <option key={name} value={name}>
                {FORMAT_LABELS[name]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${ids}-group`}>
            Group id (optional)
          </label>
          <input
            id={`${ids}-group`}
            className="input mono"
            type="text"
            value={groupId}
            onChange={(event) => setGroupId(event.target.value)}
            placeholder="derived from the file"
            maxLength={512}
            autoComplete="off"
          />
        </div>
        <div className="field-actions">
          <button type="submit" className="button button-primary" disabled={file === null || upload.isPending}>
            {upload.isPending ? "Importing…" : "Import"}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {upload.isSuccess ? <ImportSummary result={upload.data} /> : null}
        {upload.isError ? <ImportError error={upload.error} /> : null}
      </div>
    </div>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  const { counts } = result;
  return (
    <section className="card import-result" data-testid="import-result" aria-label="Import result">
      <h2>
        {result.created ? "Imported" : "Already imported"} <span className="mono">{result.group_id}</span>
      </h2>
      <p className="small muted">
        {FORMAT_LABELS[result.format]}
        {result.created ? "" : " · the same input was imported before; nothing new was written"}
      </p>
      <dl className="kv import-counts">
        <dt>timeline events</dt>
        <dd>{counts.events.toLocaleString("en-US")}</dd>
        <dt>calls</dt>
        <dd>{counts.calls.toLocaleString("en-US")}</dd>
        <dt>results</dt>
        <dd>{counts.results.toLocaleString("en-US")}</dd>
        {counts.deliveries > 0 ? (
          <>
            <dt>deliveries</dt>
            <dd>{counts.deliveries.toLocaleString("en-US")}</dd>
          </>
        ) : null}
        <dt>issues</dt>
        <dd>{counts.issues.toLocaleString("en-US")}</dd>
      </dl>
      <div className="import-links">
        <Link className="button button-primary" href={replayHref(result.group_id)}>
          Replay
        </Link>
        <Link className="button" href={threadHref(result.group_id)}>
          Open thread
        </Link>
        <a className="button" href={exportHref(result.group_id)} download>
          Export JSONL
        </a>
      </div>
      {result.issues.length > 0 ? (
        <details className="import-issues" open={result.issues.length <= 5}>
          <summary>
            {result.issues.length} import issue{result.issues.length === 1 ? "" : "s"} (nothing was dropped: each item
            is kept in the thread)
          </summary>
          <ul>
            {result.issues.slice(0, LISTED_ISSUES).map((issue, index) => (
              <li key={index}>
                <code>{issue.path || "(root)"}</code> {issue.message}
              </li>
            ))}
          </ul>
          {result.issues.length > LISTED_ISSUES ? (
            <p className="small muted">… and {result.issues.length - LISTED_ISSUES} more.</p>
          ) : null}
        </details>
      ) : null}
    </section>
  );
}

function ImportError({ error }: { error: Error }) {
  const failure = error instanceof ApiError ? error : null;
  return (
    <div className="card import-error" role="alert" data-testid="import-error">
      <strong>Import failed{failure ? ` (${failure.status} ${failure.code})` : ""}:</strong> {error.message}
      {failure?.path ? (
        <p className="small">
          At <code>{failure.path}</code>
        </p>
      ) : null}
    </div>
  );
}
