// The callback protocol's oauth messages of a call: the tool asked the user to authorize at a URL instead of
// sending a result. The URL is the tool's (untrusted): a link only for http(s), shown in full so a person can read
// where it leads before following it.
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { CallEventView } from "@/lib/calls/schemas.ts";
import { ExternalLink } from "@/components/ui/external-link.tsx";
import { TimeAgo } from "@/components/ui/time-ago.tsx";

export function OAuthRequests({ events }: { events: CallEventView[] }) {
  const requests = events.filter((event) => event.kind === "oauth" && event.text !== null);
  if (requests.length === 0) return null;
  return (
    <section className="card" aria-labelledby="oauth-title" data-testid="oauth-requests">
      <h2 id="oauth-title" className="section-title">
        Authorization requested
      </h2>
      <p className="small muted">
        The tool sent an <span className="mono">oauth</span> message instead of a result: the user must authorize it at
        this URL. The URL comes from the tool — check where it leads before opening it.
      </p>
      <ul className="call-events">
        {requests.map((event) => {
          const url = event.text ?? "";
          return (
            <li key={event.id}>
              <span className="badge badge-warn">oauth</span>{" "}
              <ExternalLink url={url} className="mono" data-testid="oauth-url">
                {presentUntrustedText(url)}
              </ExternalLink>{" "}
              <span className="small muted">
                <TimeAgo iso={event.occurredAt} />
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
