// The insights page body: confidence distribution, nextAction counts, error types by tool, slowest tools.
// Server-rendered charts (components/ui/bar-chart.tsx), each with its numbers available as text.
import Link from "next/link";
import type { ReactNode } from "react";
import type { InsightsData } from "@/lib/insights/schemas.ts";
import { Histogram, BarList, StackedBars, type Tone } from "../ui/bar-chart.tsx";
import { bandTone } from "../ui/confidence.tsx";
import { EmptyState, FirstTraceHelp } from "../ui/empty-state.tsx";
import { formatCount, plural } from "../ui/format.ts";
import { formatDuration } from "../ui/format-time.ts";
import { explorerHref } from "@/lib/explorer/schemas.ts";

const ACTION_TONE: Record<string, Tone> = {
  continue: "ok",
  retry: "warn",
  ask_user: "pending",
  human_review: "warn",
  stop: "bad",
};
const ACTION_MEANING: Record<string, string> = {
  continue: "can continue",
  retry: "can be retried",
  ask_user: "needs more from the user",
  human_review: "needs a human to confirm",
  stop: "should not continue",
};

function Card({
  id,
  title,
  description,
  children,
  wide,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <section className={`card panel${wide ? " panel-wide" : ""}`} aria-labelledby={`${id}-title`} id={id}>
      <div className="panel-header">
        <h2 id={`${id}-title`}>{title}</h2>
      </div>
      {description ? <p className="small muted panel-description">{description}</p> : null}
      {children}
    </section>
  );
}

function ConfidenceCard({ data }: { data: InsightsData }) {
  const { confidence } = data;
  const summary =
    confidence.total === 0
      ? "No result carried a confidence yet."
      : `${plural(confidence.total, "result")} with a confidence: ${confidence.bands.map((b) => `${formatCount(b.count)} ${b.band}`).join(", ")}${confidence.outOfRange > 0 ? `, ${formatCount(confidence.outOfRange)} outside 0–1` : ""}.`;
  return (
    <Card
      id="confidence"
      title="Confidence distribution"
      description="Envelope confidence in tenths, coloured by the seed's bands: ≥ 0.8 continue, 0.5–0.8 flag as uncertain, < 0.5 ask a human."
    >
      <Histogram
        title="Confidence distribution"
        summary={summary}
        binHeader="Confidence"
        valueHeader="Results"
        bins={confidence.buckets.map((bucket, i) => ({
          key: String(i),
          label: `${bucket.from.toFixed(1)}–${bucket.to.toFixed(1)}`,
          axisLabel: bucket.from.toFixed(1),
          value: bucket.count,
          tone: bandTone(bucket.band),
          description: `${bucket.band} band`,
          // Each column lists its calls in the explorer (the last one includes 1.0, as the bucket does).
          href: explorerHref(
            i === confidence.buckets.length - 1
              ? { confidenceMin: bucket.from, confidenceMax: bucket.to, sort: "confidence_low" }
              : { confidenceMin: bucket.from, confidenceBelow: bucket.to, sort: "confidence_low" },
          ),
        }))}
      />
      <ul className="band-legend" aria-label="Confidence bands">
        {confidence.bands.map((band) => (
          <li key={band.band} data-testid={`band-${band.band}`}>
            <span className={`legend-swatch bar-${bandTone(band.band)}`} aria-hidden="true" />
            <strong>{band.band}</strong> <span className="mono">{formatCount(band.count)}</span>
            <span className="small muted"> — {band.suggestion}</span>
          </li>
        ))}
        {confidence.outOfRange > 0 ? (
          <li>
            <span className="legend-swatch bar-neutral" aria-hidden="true" />
            <strong>outside 0–1</strong> <span className="mono">{formatCount(confidence.outOfRange)}</span>
            <span className="small muted"> — invalid envelopes; not in the chart</span>
          </li>
        ) : null}
      </ul>
    </Card>
  );
}

function NextActionCard({ data }: { data: InsightsData }) {
  return (
    <Card
      id="next-actions"
      title="Next actions"
      description="What tools said should happen next (envelope nextAction)."
    >
      <BarList
        caption="Results per nextAction"
        labelHeader="nextAction"
        valueHeader="Results"
        items={data.nextActions.map((entry) => ({
          key: entry.action,
          label: (
            <span>
              <span className="mono">{entry.action}</span>
              <span className="small muted bar-label-note">{ACTION_MEANING[entry.action] ?? ""}</span>
            </span>
          ),
          value: entry.count,
          tone: ACTION_TONE[entry.action] ?? "accent",
          href: explorerHref({ nextAction: entry.action }),
        }))}
      />
    </Card>
  );
}

function ErrorsCard({ data }: { data: InsightsData }) {
  const colorOf = new Map(data.errorTypes.map((type, i) => [type, i]));
  return (
    <Card
      id="errors"
      wide
      title="Error types by tool"
      description="Errored calls (by their newest result) by the envelope's error.type, or by the signal that made them errors (MCP isError, an “Error: ” text); calls whose deadline passed without a result count too. Each bar and type lists its calls."
    >
      {data.errorsByTool.length === 0 ? (
        <p className="muted panel-empty">No errors recorded.</p>
      ) : (
        <StackedBars
          caption="Errors per tool, by error type"
          labelHeader="Tool"
          rows={data.errorsByTool.map((tool) => ({
            key: tool.toolName,
            label: <span className="mono">{tool.toolName}</span>,
            href: explorerHref({ tool: tool.toolName, isError: "1" }),
            segments: tool.types.map((type) => ({
              key: type.type,
              label: type.type,
              value: type.count,
              colorIndex: colorOf.get(type.type) ?? 0,
              href: explorerHref({ tool: tool.toolName, errorType: type.type }),
            })),
          }))}
        />
      )}
    </Card>
  );
}

function DurationsCard({ data }: { data: InsightsData }) {
  const max = Math.max(0, ...data.slowestTools.map((tool) => tool.p95Ms));
  const width = (ms: number) => `${max > 0 ? Math.max(1, (ms / max) * 100).toFixed(2) : 0}%`;
  return (
    <Card
      id="durations"
      title="Slowest tools"
      description={`Duration p50 and p95 per tool: the tool's meta.durationMs when it reported one, else result time − request time. From the latest ${formatCount(data.durationSampled)} finished calls (at most ${formatCount(data.durationSampleLimit)}).`}
      wide
    >
      {data.slowestTools.length === 0 ? (
        <p className="muted panel-empty">No finished call yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table durations-table">
            <caption className="sr-only">Slowest tools by p95 duration</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col" className="durations-bar-col">
                  <span className="legend-swatch bar-accent" aria-hidden="true" /> p50{" "}
                  <span className="legend-swatch bar-accent-soft" aria-hidden="true" /> p95
                </th>
                <th scope="col" className="num">
                  p50
                </th>
                <th scope="col" className="num">
                  p95
                </th>
                <th scope="col" className="num">
                  max
                </th>
                <th scope="col" className="num">
                  calls
                </th>
              </tr>
            </thead>
            <tbody>
              {data.slowestTools.map((tool) => (
                <tr key={tool.toolName}>
                  <th scope="row" className="mono">
                    <Link href={explorerHref({ tool: tool.toolName, sort: "slowest" })}>{tool.toolName}</Link>
                  </th>
                  <td className="durations-bar-col">
                    <span className="bar-track duration-track" aria-hidden="true">
                      <span className="bar-fill bar-accent-soft" style={{ width: width(tool.p95Ms) }} />
                      <span className="bar-fill bar-accent duration-p50" style={{ width: width(tool.p50Ms) }} />
                    </span>
                  </td>
                  <td className="num">{formatDuration(tool.p50Ms)}</td>
                  <td className="num">{formatDuration(tool.p95Ms)}</td>
                  <td className="num muted">{formatDuration(tool.maxMs)}</td>
                  <td
                    className="num muted"
                    title={tool.fromMeta > 0 ? `${formatCount(tool.fromMeta)} from meta.durationMs` : undefined}
                  >
                    {formatCount(tool.samples)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

export function InsightsView({ data, origin }: { data: InsightsData; origin: string }) {
  if (data.results.total === 0 && data.slowestTools.length === 0 && data.errorsByTool.length === 0) {
    return (
      <EmptyState title="Nothing to chart yet">
        <p>Insights summarise stored results: envelope confidence, next actions, errors and durations.</p>
        <FirstTraceHelp origin={origin} />
      </EmptyState>
    );
  }
  return (
    <div className="grid grid-panels insights-grid">
      <ConfidenceCard data={data} />
      <NextActionCard data={data} />
      <ErrorsCard data={data} />
      <DurationsCard data={data} />
    </div>
  );
}
