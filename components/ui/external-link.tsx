// The one way the dashboard links to a URL it did not make (a tool's source, an MCP resource, an oauth prompt):
// a live link only for an absolute http(s) URL, opened in a new tab without referrer or opener; anything else
// (javascript:, data:, relative, too long) is shown as inert text. The text shown is masked like all tool output.
import type { ReactNode } from "react";
import { safeHttpUrl } from "@/lib/calls/safe-links.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";

type Props = {
  /** The untrusted URL as received. */
  url: string;
  /** What the link reads; the URL itself (masked) when left out. */
  children?: ReactNode;
  revealSecrets?: boolean;
  className?: string;
  "data-testid"?: string;
};

export function ExternalLink({ url, children, revealSecrets = false, className, "data-testid": testId }: Props) {
  const safe = safeHttpUrl(url);
  if (safe === null)
    return (
      <span className={className} data-testid={testId} data-inert-link="">
        {children ?? presentUntrustedText(url, { revealSecrets })}
      </span>
    );
  return (
    <a href={safe} target="_blank" rel="noreferrer noopener" className={className} data-testid={testId}>
      {children ?? presentUntrustedText(safe, { revealSecrets })}
    </a>
  );
}
