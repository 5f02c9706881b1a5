// PostgreSQL bulk inserts (bulk-rows.ts insertValues) on a real server: rows of short values travel as one array
// parameter per column (unnest), rows of long texts as a VALUES list; either way every value comes back exactly
// (quotes, backslashes, braces, "NULL", NUL-free unicode, bytes, instants, booleans, floats, nulls), ids ascend in
// the rows' order across statements, and ON CONFLICT / RETURNING tails work as written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgConnection } from "./driver.ts";
import type { SqlValue } from "./sql.ts";
import { insertValues } from "./bulk-rows.ts";
import { postgresTestUrl, testBackends, type TestDatabase } from "../testing/test-databases.ts";

const postgres = testBackends().find((backend) => backend.provider === "postgresql");
const COLUMNS = ["key", "label", "count", "flag", "ratio", "at", "bytes"] as const;

type Probe = {
  id: number;
  key: string;
  label: string | null;
  count: number | null;
  flag: boolean | null;
  ratio: number | null;
  at: Date | null;
  bytes: Buffer | null;
};

const awkward = [
  'say "hi"',
  "back\\slash \\\\ two",
  "{braces,and,commas}",
  "NULL",
  "",
  "unicode: 你好 — ✓ 🚀",
  "tab\tnew\nline",
  "'single'",
];

function rowsOf(prefix: string, count: number, label: (index: number) => string | null): SqlValue[][] {
  return Array.from({ length: count }, (_, index) => [
    `${prefix}-${index}`,
    label(index),
    index % 5 === 0 ? null : index,
    index % 3 === 0 ? null : index % 2 === 0,
    index % 7 === 0 ? null : index / 8,
    index % 4 === 0 ? null : new Date(Date.UTC(2026, 10, 28, 12, 0, 0, index % 1000)),
    index % 6 === 0 ? null : Buffer.from([0, 255, index % 256, 92, 34]),
  ]);
}

describe.runIf(postgres !== undefined && postgresTestUrl() !== null)("PostgreSQL bulk inserts", () => {
  let t: TestDatabase;
  const zone = process.env.TZ;
  beforeAll(async () => {
    // A zone away from UTC, so that an instant written in local time (pg does that inside arrays) would show.
    process.env.TZ = "America/New_York";
    if (!postgres) return;
    t = await postgres.open();
    await t.database.client
      .$executeRawUnsafe(`CREATE TABLE "BulkProbe" ("id" SERIAL PRIMARY KEY, "key" TEXT NOT NULL UNIQUE, "label" TEXT, "count" INTEGER,
      "flag" BOOLEAN, "ratio" DOUBLE PRECISION, "at" TIMESTAMP(3), "bytes" BYTEA)`);
  });
  afterAll(async () => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    await t?.cleanup();
  });

  const insert = (rows: SqlValue[][], tail: string) =>
    t.database.driverTransaction(async (tx) =>
      insertValues<{ id: number; key: string }[]>(tx as PgConnection, "BulkProbe", COLUMNS, rows, tail),
    );

  async function stored(prefix: string): Promise<Probe[]> {
    const rows = await t.database.client.$queryRawUnsafe<Probe[]>(
      `SELECT * FROM "BulkProbe" WHERE "key" LIKE $1 ORDER BY "id"`,
      `${prefix}-%`,
    );
    return rows.map((row) => ({ ...row, bytes: row.bytes === null ? null : Buffer.from(row.bytes) }));
  }

  function expectSame(found: Probe[], rows: SqlValue[][]): void {
    expect(
      found.map((row) => [
        row.key,
        row.label,
        row.count,
        row.flag,
        row.ratio,
        row.at?.toISOString() ?? null,
        row.bytes?.toString("hex") ?? null,
      ]),
    ).toEqual(
      rows.map(([key, label, count, flag, ratio, at, bytes]) => [
        key,
        label,
        count,
        flag,
        ratio,
        at instanceof Date ? at.toISOString() : null,
        Buffer.isBuffer(bytes) ? bytes.toString("hex") : null,
      ]),
    );
    // Serial ids ascend in the rows' order.
    expect(found.map((row) => row.id)).toEqual([...found.map((row) => row.id)].sort((a, b) => a - b));
  }

  it("stores short rows exactly, in order, across statements (array parameters)", async () => {
    const rows = rowsOf("short", 6_100, (index) => (index % 9 === 0 ? null : (awkward[index % awkward.length] ?? "")));
    const returned = await insert(rows, `RETURNING "id", "key"`);
    expect(returned.map((row) => row.key)).toEqual(rows.map((row) => row[0]));
    expectSame(await stored("short"), rows);
  });

  it("stores rows of long texts exactly (VALUES list)", async () => {
    const long = (index: number) => `${JSON.stringify({ index, text: awkward.join(" | "), pad: "x".repeat(900) })}`;
    const rows = rowsOf("long", 300, long);
    await insert(rows, "");
    expectSame(await stored("long"), rows);
  });

  it("applies an ON CONFLICT tail and returns only the rows it inserted", async () => {
    const first = rowsOf("conflict", 10, () => "first");
    await insert(first, "");
    const again = [...rowsOf("conflict", 10, () => "second").slice(5), ...rowsOf("conflict-new", 3, () => "new")];
    const returned = await insert(again, `ON CONFLICT ("key") DO NOTHING RETURNING "id", "key"`);
    expect(returned.map((row) => row.key)).toEqual(["conflict-new-0", "conflict-new-1", "conflict-new-2"]);
    expect((await stored("conflict")).filter((row) => row.label !== "first").map((row) => row.key)).toEqual([
      "conflict-new-0",
      "conflict-new-1",
      "conflict-new-2",
    ]);
  });

  it("names a column the table does not have", async () => {
    await expect(
      t.database.driverTransaction(async (tx) =>
        insertValues(tx as PgConnection, "BulkProbe", ["key", "missing"], [["k", "v"]], ""),
      ),
    ).rejects.toThrow('table "BulkProbe" has no column "missing"');
  });
});
