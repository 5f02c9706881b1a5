"use client";
// Shows a long untrusted text without one long main-thread task: cut into chunks at safe places (never
// inside a secret or a surrogate pair, preferably at a line end), each chunk masked and made visible on
// its own, one more chunk per animation frame. Off-screen chunks skip layout (content-visibility).
import { memo, useEffect, useMemo, useState } from "react";
import { presentUntrustedText, splitUntrustedText } from "@/lib/calls/untrusted-text.ts";

const LINE_HEIGHT_PX = 18;

// Off-screen chunks of a long text skip layout; their placeholder height is estimated from their lines.
const TextChunk = memo(function TextChunk({
  text,
  revealSecrets,
  lazy,
}: {
  text: string;
  revealSecrets: boolean;
  lazy: boolean;
}) {
  if (!lazy) return <>{presentUntrustedText(text, { revealSecrets })}</>;
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines += 1;
  return (
    <span className="text-chunk" style={{ containIntrinsicSize: `auto ${lines * LINE_HEIGHT_PX}px` }}>
      {presentUntrustedText(text, { revealSecrets })}
    </span>
  );
});

export function LargeText({
  text,
  revealSecrets = false,
  label,
  className = "",
}: {
  text: string;
  revealSecrets?: boolean;
  label: string;
  className?: string;
}) {
  const chunks = useMemo(() => splitUntrustedText(text), [text]);
  const [rendered, setRendered] = useState(1);
  useEffect(() => {
    if (rendered >= chunks.length) return;
    const frame = requestAnimationFrame(() => setRendered((count) => count + 1));
    return () => cancelAnimationFrame(frame);
  }, [rendered, chunks.length]);
  return (
    <pre className={`raw large-text ${className}`} aria-label={label} aria-busy={rendered < chunks.length} tabIndex={0}>
      {chunks.slice(0, rendered).map((chunk, index) => (
        <TextChunk key={index} text={chunk} revealSecrets={revealSecrets} lazy={chunks.length > 1} />
      ))}
    </pre>
  );
}
