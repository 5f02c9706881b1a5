// A verdict (lib/results/verdict) as one badge: the tone's colour, the label, the advice as its title.
import type { Verdict } from "@/lib/results/verdict.ts";

const TONE_CLASS: Record<Verdict["tone"], string> = {
  ok: "badge-ok",
  warn: "badge-warn",
  bad: "badge-bad",
  neutral: "badge-neutral",
};

export function VerdictBadge({
  verdict,
  title,
}: {
  verdict: Pick<Verdict, "tone" | "label" | "state">;
  title?: string;
}) {
  return (
    <span className={`badge ${TONE_CLASS[verdict.tone]}`} data-verdict={verdict.state} title={title}>
      {verdict.label}
    </span>
  );
}
