// How a Delivery row says where it came from. The callback route observes its receive time, remote address and
// webhook id; an import only reports them. A row an import wrote carries importedAt/importedBy, and every DTO
// built here moves the three observed-only fields under `imported.reported`, so no page or API shows a
// reported value as observed. Client-safe.

export const DELIVERY_ORIGINS = ["received", "imported"] as const;
export type DeliveryOrigin = (typeof DELIVERY_ORIGINS)[number];

export type ImportMarkView = {
  /** When the import wrote the row (this server's clock). */
  at: string;
  /** Who ran the import: "local", "local (cli)", "user:ada@example.com", "key:ci-runner". */
  by: string;
  /** What the imported file claimed; nothing here was observed by this server. */
  reported: { receivedAt: string; remoteAddress: string | null; webhookId: string | null };
};

export type DeliveryProvenance = {
  origin: DeliveryOrigin;
  /** The receive time this server observed; null for an imported row (see `imported.reported`). */
  receivedAt: string | null;
  /** The peer address this server observed; null for an imported row. */
  remoteAddress: string | null;
  /** The webhook-id header this server observed; null for an imported row. */
  webhookId: string | null;
  imported: ImportMarkView | null;
  /** The time the log is ordered by: receivedAt, or for an imported row the reported time. */
  loggedAt: string;
};

export type StoredProvenance = {
  receivedAt: string;
  remoteAddress: string | null;
  webhookId: string | null;
  importedAt: string | null;
  importedBy: string | null;
};

export function provenanceOf(row: StoredProvenance): DeliveryProvenance {
  if (row.importedAt === null) {
    return {
      origin: "received",
      receivedAt: row.receivedAt,
      remoteAddress: row.remoteAddress,
      webhookId: row.webhookId,
      imported: null,
      loggedAt: row.receivedAt,
    };
  }
  return {
    origin: "imported",
    receivedAt: null,
    remoteAddress: null,
    webhookId: null,
    imported: {
      at: row.importedAt,
      by: row.importedBy ?? "unknown",
      reported: { receivedAt: row.receivedAt, remoteAddress: row.remoteAddress, webhookId: row.webhookId },
    },
    loggedAt: row.receivedAt,
  };
}
