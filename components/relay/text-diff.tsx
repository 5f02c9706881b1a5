"use client";
// What a person changed in a held result: the text before and after as a line diff (removed lines marked −, added +).
import { diffLines } from "diff";

export function TextDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const parts = diffLines(before, after);
  return (
    <pre className="mono small text-diff" aria-label={label} data-testid="hold-diff">
      {parts.map((part, index) => {
        const sign = part.added ? "+ " : part.removed ? "− " : "  ";
        const lines = part.value.replace(/\n$/, "").split("\n");
        return (
          <span key={index} className={part.added ? "diff-added" : part.removed ? "diff-removed" : undefined}>
            {lines.map((line) => `${sign}${line}`).join("\n")}
            {"\n"}
          </span>
        );
      })}
    </pre>
  );
}
