// The callback audit log for the /deliveries page and its API routes: filtered, cursor-paginated pages of
// deliveries (newest first) and, on demand, one delivery's exact stored bytes or their UTF-8 text.
import "server-only";
import { SecretMasker } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { nonEmptyValues, parseQuery, parseQueryLenient } from "../http/query.ts";
import { sha256Hex } from "../results/hash.ts";
import { countDeliveriesByOutcome, findDeliveries, findDeliveryBody, findExistingThreads } from "./repository.ts";
import {
  DELIVERY_PAGE_SIZE,
  DISPLAY_LIMIT_BYTES,
  decodeDeliveryCursor,
  deliveryQuerySchema,
  encodeDeliveryCursor,
  type DeliveryBody,
  type DeliveryPage,
  type DeliveryQuery,
} from "./schemas.ts";

export type SearchParamsRecord = Record<string, string | string[] | undefined>;

/**
 * Reads `?outcome=&group=&origin=&cursor=&limit=` (empty values mean "any"). Strict (API): a bad value is the one
 * 422 naming the parameter. Lenient (page): bad values are dropped and named in `ignored`.
 */
export function parseDeliveryQuery(
  params: SearchParamsRecord,
  mode: "strict" | "lenient",
): { query: DeliveryQuery; ignored: string[] } {
  const values = nonEmptyValues(params);
  if (mode === "strict") return { query: parseQuery(deliveryQuerySchema, values), ignored: [] };
  return parseQueryLenient(deliveryQuerySchema, values);
}

export async function listDeliveries(options: {
  query: DeliveryQuery;
  database?: Database;
  now?: Date;
}): Promise<DeliveryPage> {
  const db = options.database ?? (await getDatabase());
  const { query } = options;
  const limit = query.limit ?? DELIVERY_PAGE_SIZE;
  const filters = { outcome: query.outcome, groupId: query.group, origin: query.origin };
  const [rows, counts] = await Promise.all([
    findDeliveries(db.client, {
      filters,
      cursor: query.cursor ? decodeDeliveryCursor(query.cursor) : null,
      limit: limit + 1,
    }),
    countDeliveriesByOutcome(db.client, { groupId: query.group, origin: query.origin }),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const groupIds = [...new Set(page.flatMap((row) => (row.groupId === null ? [] : [row.groupId])))];
  const threads = await findExistingThreads(db.client, groupIds);
  return {
    generatedAt: (options.now ?? new Date()).toISOString(),
    filters: {
      ...(query.outcome ? { outcome: query.outcome } : {}),
      ...(query.group ? { group: query.group } : {}),
      ...(query.origin ? { origin: query.origin } : {}),
    },
    cursor: query.cursor ?? null,
    items: page.map((row) => ({ ...row, threadExists: row.groupId !== null && threads.has(row.groupId) })),
    nextCursor: rows.length > limit && last ? encodeDeliveryCursor(last) : null,
    outcomeCounts: Object.fromEntries(counts),
  };
}

function decodeUtf8(bytes: Uint8Array): { text: string; valid: boolean } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), valid: true };
  } catch {
    return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), valid: false };
  }
}

async function storedBody(id: number, database?: Database) {
  const db = database ?? (await getDatabase());
  const row = await findDeliveryBody(db.client, id);
  if (!row) throw new AppError("not_found", `No delivery ${id}`);
  return { ...row, bytes: row.rawBody ?? new Uint8Array() };
}

/** One delivery's stored body as masked text for the body view (never parsed, never rendered as HTML by the page). */
export async function getDeliveryBody(options: { id: number; database?: Database }): Promise<DeliveryBody> {
  const row = await storedBody(options.id, options.database);
  const { bytes } = row;
  const full = decodeUtf8(bytes);
  // stream: true leaves a character cut at the display limit undecoded instead of turning it into U+FFFD.
  const shown = bytes.subarray(0, DISPLAY_LIMIT_BYTES);
  const text =
    bytes.length > DISPLAY_LIMIT_BYTES
      ? new TextDecoder("utf-8", { ignoreBOM: true }).decode(shown, { stream: true })
      : full.text;
  const masker = new SecretMasker();
  return {
    id: row.id,
    contentType: row.contentType,
    bodyBytes: row.bodyBytes,
    storedBytes: bytes.length,
    text: masker.text(text),
    secrets: masker.secrets,
    shownBytes: shown.length,
    validUtf8: full.valid,
    truncatedAtReceipt: row.rawBodyTruncated,
    bodySha256: row.bodySha256,
    // A refused delivery keeps only a prefix; its sha256 is the whole body's, which the prefix cannot verify.
    sha256Verified: row.bodySha256 === null || row.rawBodyTruncated ? null : sha256Hex(bytes) === row.bodySha256,
  };
}

/** The exact stored bytes, for download. */
export async function getDeliveryRawBytes(options: {
  id: number;
  database?: Database;
}): Promise<{ bytes: Uint8Array; filename: string }> {
  const row = await storedBody(options.id, options.database);
  return { bytes: row.bytes, filename: `delivery-${row.id}${row.rawBodyTruncated ? "-truncated" : ""}.bin` };
}

/** `/api/deliveries/<id>`: a positive integer, else 400. */
