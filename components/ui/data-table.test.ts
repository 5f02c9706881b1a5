// DataTable writes the markup every list used to hand-write: scoped headers, keyed rows, cell classes, footnote.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./data-table.tsx";

type Row = { id: number; name: string };
const columns: Column<Row>[] = [
  { key: "name", header: "Name", cell: (row) => row.name, className: "mono" },
  { key: "position", header: "#", cell: (_row, index) => index + 1, headerClassName: "num" },
];

describe("DataTable", () => {
  it("renders scoped headers, one row per item with its attributes, and the footnote", () => {
    const html = renderToStaticMarkup(
      createElement(DataTable<Row>, {
        rows: [
          { id: 1, name: "<b>a</b>" },
          { id: 2, name: "b" },
        ],
        columns,
        rowKey: (row) => row.id,
        rowAttributes: (row) => ({ "data-testid": "row", "data-id": String(row.id) }),
        label: "Things",
        footnote: "Showing 2 of 9.",
      }),
    );
    expect(html).toBe(
      '<div class="card table-card table-wrap"><table class="table" aria-label="Things"><thead><tr>' +
        '<th scope="col" class="mono">Name</th><th scope="col" class="num">#</th></tr></thead><tbody>' +
        '<tr data-testid="row" data-id="1"><td class="mono">&lt;b&gt;a&lt;/b&gt;</td><td>1</td></tr>' +
        '<tr data-testid="row" data-id="2"><td class="mono">b</td><td>2</td></tr></tbody></table>' +
        '<p class="small muted table-footnote">Showing 2 of 9.</p></div>',
    );
  });
});
