// Prisma access for API keys and the user list (Better Auth owns the rest of its tables through its adapter).
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { ApiKeyView, KeyScope, UserView } from "./schemas.ts";

type KeyRow = {
  id: number;
  name: string;
  scope: string;
  prefix: string;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

function scopeOf(value: string): KeyScope {
  return value === "ingest" || value === "read" ? value : "admin";
}

function keyView(row: KeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    scope: scopeOf(row.scope),
    prefix: row.prefix,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function insertKey(
  db: ModelClient,
  input: { name: string; scope: KeyScope; prefix: string; keyHash: string; createdBy: string },
): Promise<ApiKeyView> {
  return keyView(await db.apiKey.create({ data: input }));
}

export async function findKeys(db: ModelClient): Promise<ApiKeyView[]> {
  const rows = await db.apiKey.findMany({ orderBy: [{ revokedAt: "asc" }, { id: "desc" }], take: 1000 });
  return rows.map(keyView);
}

export async function findKeyByHash(db: ModelClient, keyHash: string): Promise<ApiKeyView | null> {
  const row = await db.apiKey.findUnique({ where: { keyHash } });
  return row ? keyView(row) : null;
}

export async function markKeyUsed(db: ModelClient, id: number, at: Date): Promise<void> {
  await db.apiKey.update({ where: { id }, data: { lastUsedAt: at } });
}

/** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
export async function setKeyRevoked(db: ModelClient, id: number, at: Date): Promise<ApiKeyView | null> {
  const row = await db.apiKey.findUnique({ where: { id } });
  if (!row) return null;
  if (row.revokedAt) return keyView(row);
  return keyView(await db.apiKey.update({ where: { id }, data: { revokedAt: at } }));
}

export async function countUsers(db: ModelClient): Promise<number> {
  return db.user.count();
}

export async function findUsers(db: ModelClient): Promise<UserView[]> {
  const rows = await db.user.findMany({
    orderBy: { createdAt: "asc" },
    take: 1000,
    select: { id: true, email: true, name: true, createdAt: true },
  });
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
