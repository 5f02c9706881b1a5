// Small charts drawn with CSS, no chart library: every chart is also text. Bar lists and stacked bars are
// tables whose numbers are visible; the column histogram is an image (role="img", summarised in its label)
// with its data table one click away. Server-renderable: no hooks, no client JavaScript.
import Link from "next/link";
import type { ReactNode } from "react";
import { formatCount } from "./format.ts";

export type Tone = "ok" | "warn" | "bad" | "accent" | "pending" | "neutral";

function percent(value: number, max: number): string {
  if (max <= 0 || value <= 0) return "0%";
  // A non-zero value always shows at least a sliver, so "1" is never drawn like "0".
  return `${Math.max(1.5, Math.min(100, (value / max) * 100)).toFixed(2)}%`;
}

export type BarListItem = {
  key: string;
  label: ReactNode;
  value: number;
  tone?: Tone;
  href?: string;
  valueLabel?: string;
};

/** Horizontal bars: label, bar, value. A table, so screen readers read label and value together. */
export function BarList({
  caption,
  items,
  valueHeader = "Count",
  labelHeader = "Name",
}: {
  caption: string;
  items: BarListItem[];
  valueHeader?: string;
  labelHeader?: string;
}) {
  const max = Math.max(0, ...items.map((item) => item.value));
  return (
    <table className="bar-table">
      <caption className="sr-only">{caption}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">{labelHeader}</th>
          <th scope="col">{valueHeader}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.key}>
            <th scope="row" className="bar-label">
              {item.href ? <Link href={item.href}>{item.label}</Link> : item.label}
            </th>
            <td className="bar-cell">
              <div className="bar-cell-grid">
                <span className="bar-track" aria-hidden="true">
                  <span
                    className={`bar-fill bar-${item.tone ?? "accent"}`}
                    style={{ width: percent(item.value, max) }}
                  />
                </span>
                <span className="bar-value">{item.valueLabel ?? formatCount(item.value)}</span>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `axisLabel` is the short text under the column (e.g. "0.3"); `label` names the bin in titles and the table. */
export type HistogramBin = {
  key: string;
  label: string;
  axisLabel?: string;
  value: number;
  tone?: Tone;
  description?: string;
  href?: string;
};

/** Vertical columns. The picture is one image with a summary; the exact numbers are in the data table below it. */
export function Histogram({
  title,
  summary,
  bins,
  valueHeader = "Count",
  binHeader = "Range",
}: {
  title: string;
  summary: string;
  bins: HistogramBin[];
  valueHeader?: string;
  binHeader?: string;
}) {
  const max = Math.max(0, ...bins.map((bin) => bin.value));
  return (
    <figure className="histogram">
      {/* An image when it is only a picture; a labelled group when its columns link to the explorer (an image may not hold links). */}
      <div
        className="histogram-plot"
        role={bins.some((bin) => bin.href) ? "group" : "img"}
        aria-label={`${title}. ${summary}`}
      >
        {bins.map((bin) => (
          <div key={bin.key} className="histogram-column" title={`${bin.label}: ${formatCount(bin.value)}`}>
            <span className="histogram-count">{bin.value > 0 ? formatCount(bin.value) : ""}</span>
            <span className="histogram-track">
              <span
                className={`histogram-bar bar-${bin.tone ?? "accent"}`}
                style={{ height: percent(bin.value, max) }}
              />
            </span>
            <span className="histogram-label">
              {bin.href ? (
                <Link href={bin.href} aria-label={`${bin.label}: ${formatCount(bin.value)}, list these calls`}>
                  {bin.axisLabel ?? bin.label}
                </Link>
              ) : (
                (bin.axisLabel ?? bin.label)
              )}
            </span>
          </div>
        ))}
      </div>
      <figcaption className="small muted">{summary}</figcaption>
      <details className="chart-data">
        <summary>Data table</summary>
        <table className="table">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{binHeader}</th>
              <th scope="col" className="num">
                {valueHeader}
              </th>
              {bins.some((bin) => bin.description) ? <th scope="col">Meaning</th> : null}
            </tr>
          </thead>
          <tbody>
            {bins.map((bin) => (
              <tr key={bin.key}>
                <th scope="row">{bin.href ? <Link href={bin.href}>{bin.label}</Link> : bin.label}</th>
                <td className="num">{formatCount(bin.value)}</td>
                {bins.some((b) => b.description) ? <td>{bin.description ?? ""}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

export type StackSegment = { key: string; label: string; value: number; colorIndex: number; href?: string };
export type StackRow = { key: string; label: ReactNode; segments: StackSegment[]; href?: string };

/** One stacked bar per row (e.g. error types per tool); the breakdown is printed beside the bar. */
export function StackedBars({
  caption,
  rows,
  labelHeader,
  totalHeader = "Total",
}: {
  caption: string;
  rows: StackRow[];
  labelHeader: string;
  totalHeader?: string;
}) {
  const totals = rows.map((row) => row.segments.reduce((sum, segment) => sum + segment.value, 0));
  const max = Math.max(0, ...totals);
  return (
    <table className="bar-table stacked-table">
      <caption className="sr-only">{caption}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">{labelHeader}</th>
          <th scope="col">{totalHeader} and breakdown</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => {
          const total = totals[index] ?? 0;
          return (
            <tr key={row.key}>
              <th scope="row" className="bar-label">
                {row.href ? <Link href={row.href}>{row.label}</Link> : row.label}
              </th>
              <td className="bar-cell">
                <div className="bar-cell-grid">
                  <span className="bar-track" aria-hidden="true">
                    <span className="bar-stack" style={{ width: percent(total, max) }}>
                      {row.segments.map((segment) => (
                        <span
                          key={segment.key}
                          className={`bar-fill cat-${segment.colorIndex % 8}`}
                          style={{ width: percent(segment.value, total) }}
                          title={`${segment.label}: ${formatCount(segment.value)}`}
                        />
                      ))}
                    </span>
                  </span>
                  <span className="bar-value">{formatCount(total)}</span>
                  <span className="bar-breakdown small muted">
                    {row.segments.map((segment, i) => (
                      <span key={segment.key} className="nowrap">
                        {i > 0 ? " · " : ""}
                        <span className={`legend-swatch cat-${segment.colorIndex % 8}`} aria-hidden="true" />
                        {segment.href ? (
                          <Link href={segment.href}>
                            {segment.label} {formatCount(segment.value)}
                          </Link>
                        ) : (
                          <>
                            {segment.label} {formatCount(segment.value)}
                          </>
                        )}
                      </span>
                    ))}
                  </span>
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
