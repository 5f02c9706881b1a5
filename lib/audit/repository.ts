// Prisma access for lib/audit: AccessRecord rows (who revealed or read what), and the texts a reveal searches —
// one call's rows, a thread's, or a delivery's body — read page by page so a large thread is never whole in memory.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { decodeStoredText } from "../results/text-codec.ts";
import type { RevealScope } from "./mask.ts";
import type { AccessAction, AccessRecordView } from "./schemas.ts";

export async function insertAccessRecord(
  client: ModelClient,
  record: { principal: string; action: AccessAction; target: string; detail: string | null; at?: Date },
): Promise<AccessRecordView> {
  const row = await client.accessRecord.create({
    data: record,
    select: { id: true, at: true, principal: true, action: true, target: true, detail: true },
  });
  return { ...row, at: row.at.toISOString() };
}

export async function findAccessRecords(
  client: ModelClient,
  options: { limit: number; target?: string },
): Promise<AccessRecordView[]> {
  const rows = await client.accessRecord.findMany({
    where: options.target === undefined ? {} : { target: options.target },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: options.limit,
    select: { id: true, at: true, principal: true, action: true, target: true, detail: true },
  });
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}

/** One row's texts that may hold a secret, named by where they live ("result:12"). */
export type SourceTexts = { target: string; texts: (string | null)[] };

const PAGE = 100;

/** Pages through `read(afterId)` until it returns fewer rows than a page. */
async function* paged<Row extends { id: number }>(
  read: (after: number) => Promise<Row[]>,
  map: (row: Row) => SourceTexts,
): AsyncGenerator<SourceTexts> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    for (const row of rows) yield map(row);
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || last === undefined) return;
    after = last.id;
  }
}

const bodyText = (body: Uint8Array | null) => (body === null ? null : new TextDecoder("utf-8").decode(body));

/** Where the scope's own rows are: the filters every table is read with. */
async function scopeFilters(client: ModelClient, scope: RevealScope) {
  if (scope.kind === "call") {
    const id = Number(scope.id);
    if (!Number.isSafeInteger(id)) return null;
    return {
      call: { id },
      result: { toolCallId: id },
      event: { toolCallId: id },
      delivery: { toolCallId: id },
      turn: null,
      thread: null,
    };
  }
  const thread = await client.thread.findUnique({ where: { groupId: scope.id }, select: { id: true, title: true } });
  if (thread === null) return null;
  return {
    call: { threadId: thread.id },
    result: { toolCall: { threadId: thread.id } },
    event: { threadId: thread.id },
    delivery: { groupId: scope.id },
    turn: { forkRun: { threadId: thread.id } },
    thread,
  };
}

/** Every text of the scope, row by row: a reveal looks for its fingerprint in them. */
export async function* scanScopeTexts(client: ModelClient, scope: RevealScope): AsyncGenerator<SourceTexts> {
  if (scope.kind === "delivery") {
    const id = Number(scope.id);
    const row = Number.isSafeInteger(id)
      ? await client.delivery.findUnique({ where: { id }, select: { id: true, rawBody: true } })
      : null;
    if (row !== null) yield { target: `delivery:${row.id}`, texts: [bodyText(row.rawBody)] };
    return;
  }
  const where = await scopeFilters(client, scope);
  if (where === null) return;
  if (where.thread !== null) yield { target: `thread:${scope.id}`, texts: [where.thread.title] };
  // Combined with AND, never spread: the call scope filters on `id` too, and a spread page filter replaced it.
  const after = (id: number) => ({ id: { gt: id } });
  yield* paged(
    (id) =>
      client.toolCall.findMany({
        where: { AND: [where.call, after(id)] },
        orderBy: { id: "asc" },
        take: PAGE,
        select: {
          id: true,
          argumentsText: true,
          argumentsEscaped: true,
          argumentsJson: true,
          declarationJson: true,
          outputSchemaJson: true,
        },
      }),
    (row) => ({
      target: `call:${row.id}`,
      texts: [
        row.argumentsText === null ? null : decodeStoredText(row.argumentsText, row.argumentsEscaped),
        row.argumentsJson,
        row.declarationJson,
        row.outputSchemaJson,
      ],
    }),
  );
  yield* paged(
    (id) =>
      client.toolResult.findMany({
        where: { AND: [where.result, after(id)] },
        orderBy: { id: "asc" },
        take: PAGE,
        select: { id: true, text: true, textEscaped: true, displayAsJson: true },
      }),
    (row) => ({ target: `result:${row.id}`, texts: [decodeStoredText(row.text, row.textEscaped), row.displayAsJson] }),
  );
  yield* paged(
    (id) =>
      client.event.findMany({
        where: { AND: [where.event, after(id)] },
        orderBy: { id: "asc" },
        take: PAGE,
        select: { id: true, text: true, textEscaped: true, dataJson: true, rawJson: true },
      }),
    (row) => ({
      target: `event:${row.id}`,
      texts: [row.text === null ? null : decodeStoredText(row.text, row.textEscaped), row.dataJson, row.rawJson],
    }),
  );
  yield* paged(
    (id) =>
      client.delivery.findMany({
        where: { AND: [where.delivery, after(id)] },
        orderBy: { id: "asc" },
        take: PAGE,
        select: { id: true, rawBody: true },
      }),
    (row) => ({ target: `delivery:${row.id}`, texts: [bodyText(row.rawBody)] }),
  );
  if (where.turn === null) return;
  const turnWhere = where.turn;
  yield* paged(
    (id) =>
      client.modelTurn.findMany({
        where: { AND: [turnWhere, after(id)] },
        orderBy: { id: "asc" },
        take: PAGE,
        select: { id: true, liveJson: true, responseJson: true, errorText: true, skippedJson: true },
      }),
    (row) => ({ target: `turn:${row.id}`, texts: [row.liveJson, row.responseJson, row.errorText, row.skippedJson] }),
  );
}
