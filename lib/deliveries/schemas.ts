// The callback audit log (Delivery rows): filter and cursor parameters, and the DTOs of the service, the API
// routes and the components. Client-safe.
import { z } from "zod";
import type { MaskedSecret } from "../audit/schemas.ts";
import { DELIVERY_ORIGINS, type DeliveryOrigin, type DeliveryProvenance } from "../audit/import-mark.ts";
import { DELIVERY_OUTCOMES, type DeliveryOutcome } from "../ingest/outcomes.ts";

/** The audit log's outcomes, the same list ingestion writes. */
export const AUDIT_OUTCOMES = DELIVERY_OUTCOMES;
export type AuditOutcome = DeliveryOutcome;

export const DELIVERY_PAGE_SIZE = 50;
const ID_MAX = 512;

/** `<receivedAt epoch ms>.<id>`: the last row of the previous page (newest first: receivedAt desc, id desc). */
export const deliveryCursorSchema = z.string().regex(/^\d{1,15}\.\d{1,15}$/, "cursor must look like <epochMs>.<id>");

export const deliveryQuerySchema = z.object({
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  group: z.string().min(1).max(ID_MAX).optional().describe("The group_id the delivery named (thread id)"),
  origin: z
    .enum(DELIVERY_ORIGINS)
    .optional()
    .describe("received: POSTed to this server's callback route; imported: written by an import"),
  cursor: deliveryCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type DeliveryQuery = z.infer<typeof deliveryQuerySchema>;

export type DeliveryCursor = { receivedAt: Date; id: number };

export function encodeDeliveryCursor(row: { loggedAt: string; id: number }): string {
  return `${Date.parse(row.loggedAt)}.${row.id}`;
}

export function decodeDeliveryCursor(cursor: string): DeliveryCursor {
  const [ms, id] = cursor.split(".");
  return { receivedAt: new Date(Number(ms)), id: Number(id) };
}

/**
 * One audit row. Its provenance fields (`origin`, `receivedAt`, `remoteAddress`, `webhookId`, `imported`,
 * `loggedAt`) come from lib/audit/import-mark: an imported row's observed-only fields are null and what the
 * import claimed sits under `imported.reported`.
 */
export type DeliveryRow = DeliveryProvenance & {
  id: number;
  outcome: string;
  httpStatus: number;
  reason: string | null;
  groupId: string | null;
  callKey: string | null;
  /** Set when the delivery named a registered call: links to /calls/<id>. */
  toolCallId: number | null;
  resultId: number | null;
  /** A thread with this group id exists (an unknown-call delivery may name one that does not). */
  threadExists: boolean;
  contentType: string | null;
  bodyBytes: number;
  bodySha256: string | null;
  rawBodyTruncated: boolean;
};

export type DeliveryPage = {
  generatedAt: string;
  filters: { outcome?: AuditOutcome; group?: string; origin?: DeliveryOrigin };
  cursor: string | null;
  items: DeliveryRow[];
  /** The cursor of the next (older) page, or null on the last page. */
  nextCursor: string | null;
  /** Deliveries per outcome (within the group filter, if any), for the filter. */
  outcomeCounts: Partial<Record<string, number>>;
};

export type DeliveryBody = {
  id: number;
  contentType: string | null;
  /** Bytes the sender sent; the stored prefix is shorter when the body was over the size limit. */
  bodyBytes: number;
  storedBytes: number;
  /**
   * The stored bytes decoded as UTF-8 (invalid sequences become U+FFFD), at most `DISPLAY_LIMIT_BYTES` of them,
   * secrets masked (lib/audit/mask); the exact bytes are GET /api/deliveries/{id}/raw.
   */
  text: string;
  /** The values masked in `text`, each revealed on request (POST /api/secrets/reveal, scope delivery). */
  secrets: MaskedSecret[];
  shownBytes: number;
  validUtf8: boolean;
  truncatedAtReceipt: boolean;
  bodySha256: string | null;
  /** sha256 of the stored bytes equals the one recorded on receipt (null: nothing recorded, e.g. too large). */
  sha256Verified: boolean | null;
};

export const DISPLAY_LIMIT_BYTES = 256 * 1024;
