"use client";
// One delivery's raw body, loaded when opened: the stored bytes decoded as UTF-8 and shown as text only.
// Invisible and bidi characters are made visible (⟨U+202E⟩) so the text cannot disguise itself, and
// credential-looking strings arrive masked, each revealed on its own request.
import { useQuery } from "@tanstack/react-query";
import type { DeliveryBody } from "@/lib/deliveries/schemas.ts";
import { revealInvisible, scanFlags } from "@/lib/results/flags.ts";
import { SecretsPanel } from "../secrets/secrets-panel.tsx";
import { queryKeys } from "../providers/query-keys.ts";
import { fetchJson } from "../ui/fetch-json.ts";
import { formatBytes, plural } from "../ui/format.ts";

function BodyText({ body }: { body: DeliveryBody }) {
  // The text arrives masked (lib/deliveries getDeliveryBody); values are revealed one by one below.
  const flags = scanFlags(body.text);
  const shown = revealInvisible(body.text);
  const notes: string[] = [];
  if (body.truncatedAtReceipt)
    notes.push(
      `Truncated: the body (${formatBytes(body.bodyBytes)}) was over the size limit; only the first ${formatBytes(body.storedBytes)} were kept.`,
    );
  if (body.shownBytes < body.storedBytes)
    notes.push(
      `Showing the first ${formatBytes(body.shownBytes)} of ${formatBytes(body.storedBytes)}; download the raw bytes for the rest.`,
    );
  if (!body.validUtf8)
    notes.push("Not valid UTF-8: undecodable bytes are shown as �. The download has the exact bytes.");
  if (flags.invisibleCount > 0)
    notes.push(`${plural(flags.invisibleCount, "invisible or bidi character")} shown as ⟨U+…⟩ markers.`);
  return (
    <div className="delivery-body">
      <div className="delivery-body-meta small">
        <span className="mono">{body.contentType ?? "no content type"}</span>
        <span>{formatBytes(body.storedBytes)} stored</span>
        <span className={body.validUtf8 ? "text-ok" : "text-warn"}>
          {body.validUtf8 ? "valid UTF-8" : "invalid UTF-8"}
        </span>
        {body.sha256Verified === null ? (
          <span className="muted">no sha256 recorded</span>
        ) : body.sha256Verified ? (
          <span className="text-ok">sha256 matches the stored bytes</span>
        ) : (
          <span className="text-bad">sha256 does NOT match the stored bytes</span>
        )}
        <a href={`/api/deliveries/${body.id}/raw`} download className="button">
          Download raw bytes
        </a>
      </div>
      {notes.length > 0 ? (
        <ul className="delivery-body-notes small">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      <pre className="raw" data-testid="delivery-raw-body" tabIndex={0} aria-label={`Raw body of delivery ${body.id}`}>
        {shown}
        {body.truncatedAtReceipt ? <span className="raw-cut">{"\n"}⟨truncated at receipt⟩</span> : null}
      </pre>
      <SecretsPanel secrets={body.secrets} scopes={[{ kind: "delivery", id: String(body.id) }]} />
    </div>
  );
}

export function DeliveryBodyView({ id }: { id: number }) {
  const query = useQuery({
    queryKey: queryKeys.deliveryBody(id),
    queryFn: ({ signal }) => fetchJson<DeliveryBody>(`/api/deliveries/${id}/body`, signal),
    // A delivery's stored bytes never change.
    staleTime: Infinity,
  });
  if (query.isPending)
    return (
      <p className="muted small" role="status">
        Loading the body…
      </p>
    );
  if (query.isError)
    return (
      <p className="text-bad small" role="alert">
        Could not load the body: {query.error.message}
      </p>
    );
  return <BodyText body={query.data} />;
}
