// One overview figure: a number that links to the filtered list behind it.
import Link from "next/link";
import type { ReactNode } from "react";
import type { Tone } from "../ui/bar-chart.tsx";
import { formatCount } from "../ui/format.ts";

export function Figure({
  label,
  value,
  href,
  testId,
  tone,
  hint,
}: {
  label: string;
  value: number;
  href: string;
  testId: string;
  tone?: Tone;
  hint?: ReactNode;
}) {
  return (
    <Link href={href} className={`stat${tone && value > 0 ? ` stat-tone-${tone}` : ""}`} data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{formatCount(value)}</div>
      {hint ? <div className="stat-hint">{hint}</div> : null}
    </Link>
  );
}
