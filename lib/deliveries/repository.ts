// Prisma access for the callback audit log: pages of Delivery rows (never their bodies), outcome counts, one body.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { provenanceOf, type DeliveryOrigin } from "../audit/import-mark.ts";
import { DELIVERY_AUDIT } from "../db/selects.ts";
import type { AuditOutcome, DeliveryCursor, DeliveryRow } from "./schemas.ts";

export type DeliveryFilters = { outcome?: AuditOutcome; groupId?: string; origin?: DeliveryOrigin };

function whereOf(filters: DeliveryFilters) {
  return {
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(filters.groupId ? { groupId: filters.groupId } : {}),
    ...(filters.origin === "received"
      ? { importedAt: null }
      : filters.origin === "imported"
        ? { importedAt: { not: null } }
        : {}),
  };
}

/**
 * Newest first by (receivedAt, id): the (outcome, receivedAt) and (groupId, receivedAt) indexes serve each
 * filter (SQLite's secondary indexes end in the row id). Returns up to `limit` rows.
 */
export async function findDeliveries(
  db: ModelClient,
  options: { filters: DeliveryFilters; cursor: DeliveryCursor | null; limit: number },
): Promise<Omit<DeliveryRow, "threadExists">[]> {
  const { cursor } = options;
  const rows = await db.delivery.findMany({
    where: {
      ...whereOf(options.filters),
      ...(cursor
        ? { OR: [{ receivedAt: { lt: cursor.receivedAt } }, { receivedAt: cursor.receivedAt, id: { lt: cursor.id } }] }
        : {}),
    },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: options.limit,
    select: { ...DELIVERY_AUDIT, groupId: true, callKey: true, toolCallId: true },
  });
  return rows.map(({ receivedAt, remoteAddress, webhookId, importedAt, importedBy, ...row }) => ({
    ...row,
    ...provenanceOf({
      receivedAt: receivedAt.toISOString(),
      remoteAddress,
      webhookId,
      importedAt: importedAt?.toISOString() ?? null,
      importedBy,
    }),
  }));
}

export async function findExistingThreads(db: ModelClient, groupIds: string[]): Promise<Set<string>> {
  if (groupIds.length === 0) return new Set();
  const threads = await db.thread.findMany({ where: { groupId: { in: groupIds } }, select: { groupId: true } });
  return new Set(threads.map((t) => t.groupId));
}

export async function countDeliveriesByOutcome(
  db: ModelClient,
  filters: Omit<DeliveryFilters, "outcome"> = {},
): Promise<Map<string, number>> {
  const groups = await db.delivery.groupBy({ by: ["outcome"], where: whereOf(filters), _count: { _all: true } });
  return new Map(groups.map((g) => [g.outcome, g._count._all]));
}

export type StoredDeliveryBody = {
  id: number;
  contentType: string | null;
  bodyBytes: number;
  bodySha256: string | null;
  rawBody: Uint8Array | null;
  rawBodyTruncated: boolean;
};

export async function findDeliveryBody(db: ModelClient, id: number): Promise<StoredDeliveryBody | null> {
  return db.delivery.findUnique({
    where: { id },
    select: { id: true, contentType: true, bodyBytes: true, bodySha256: true, rawBody: true, rawBodyTruncated: true },
  });
}
