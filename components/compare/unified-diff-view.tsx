"use client";
// Renders a unified diff (lib/traces/line-diff) with react-diff-view, which is client-only (it creates a
// React context at import time). Lines are untrusted tool text: secrets masked, invisible characters shown.
import { useMemo } from "react";
import { Diff, Hunk, parseDiff, type HunkData } from "react-diff-view";
import "react-diff-view/style/index.css";
import { findSecrets, maskSecrets, revealInvisible } from "@/lib/results/flags.ts";

function present(line: string): string {
  return revealInvisible(maskSecrets(line, findSecrets(line)));
}

function presentHunk(hunk: HunkData): HunkData {
  return { ...hunk, changes: hunk.changes.map((change) => ({ ...change, content: present(change.content) })) };
}

export function UnifiedDiffView({ diff, label }: { diff: string; label: string }) {
  const files = useMemo(() => parseDiff(diff).map((file) => ({ ...file, hunks: file.hunks.map(presentHunk) })), [diff]);
  return (
    <div className="compare-diff" role="group" aria-label={label}>
      {files.map((file, index) => (
        <Diff key={index} viewType="unified" diffType={file.type} hunks={file.hunks}>
          {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
        </Diff>
      ))}
    </div>
  );
}
