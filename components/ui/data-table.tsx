// The one table: columns declared once (header, cell, class), rows keyed, a footnote for "showing N of M" — so a
// list page writes what its columns are, not the thead/tbody markup. Server- and client-safe (no hooks); the
// scroller around it keeps a wide table from widening the page at 390 px.
import type { ReactNode } from "react";

export type Column<Row> = {
  /** Stable name of the column (React key, data-column). */
  key: string;
  header: ReactNode;
  cell: (row: Row, index: number) => ReactNode;
  /** Class of the column's cells (mono, nowrap, cell-id, num…). */
  className?: string;
  /** Class of the header cell, when it differs from the cells'. */
  headerClassName?: string;
};

/** Attributes a row may carry: a class, and data-* attributes for tests and styles. */
export type RowAttributes = { className?: string } & { [name: `data-${string}`]: string | undefined };

type Props<Row> = {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string | number;
  rowAttributes?: (row: Row) => RowAttributes;
  /** The table's accessible name, when no caption or heading names it. */
  label?: string;
  caption?: ReactNode;
  /** Below the table: "Showing the newest 500 of 82,625" and the like. */
  footnote?: ReactNode;
  "data-testid"?: string;
  tableClassName?: string;
  /** The scroller's class; a card by default. */
  wrapperClassName?: string;
};

export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  rowAttributes,
  label,
  caption,
  footnote,
  tableClassName = "table",
  wrapperClassName = "card table-card table-wrap",
  ...rest
}: Props<Row>) {
  return (
    <div className={wrapperClassName}>
      <table className={tableClassName} aria-label={label} data-testid={rest["data-testid"]}>
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={column.headerClassName ?? column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row)} {...rowAttributes?.(row)}>
              {columns.map((column) => (
                <td key={column.key} className={column.className}>
                  {column.cell(row, index)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {footnote ? <p className="small muted table-footnote">{footnote}</p> : null}
    </div>
  );
}
