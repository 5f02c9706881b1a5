// API keys: 256 random bits, shown once, stored as their SHA-256 (a key is not a password: with that much
// entropy a fast hash is the standard, and lookups stay one index probe on the ingest hot path).
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { findKeyByHash, findKeys, insertKey, markKeyUsed, setKeyRevoked } from "./repository.ts";
import type { ApiKeyView, CreatedApiKey, KeyScope } from "./schemas.ts";

export const KEY_PREFIX = "tsk_";
/** lastUsedAt is written at most this often per key, so a busy ingest key costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export async function createKey(input: {
  name: string;
  scope: KeyScope;
  createdBy: string;
  database?: Database;
}): Promise<CreatedApiKey> {
  const database = input.database ?? (await getDatabase());
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const view = await insertKey(database.client, {
    name: input.name,
    scope: input.scope,
    prefix: key.slice(0, KEY_PREFIX.length + 6),
    keyHash: hashKey(key),
    createdBy: input.createdBy,
  });
  return { ...view, key };
}

export async function listKeys(database?: Database): Promise<ApiKeyView[]> {
  return findKeys((database ?? (await getDatabase())).client);
}

export async function revokeKey(id: number, database?: Database): Promise<ApiKeyView> {
  const revoked = await setKeyRevoked((database ?? (await getDatabase())).client, id, new Date());
  if (!revoked) throw new AppError("not_found", `No API key ${id}`);
  return revoked;
}

/** The live key a bearer token names; throws 401 for an unknown or revoked one. */
export async function verifyKey(token: string, database?: Database): Promise<ApiKeyView> {
  const db = database ?? (await getDatabase());
  const key =
    token.startsWith(KEY_PREFIX) && token.length < 200 ? await findKeyByHash(db.client, hashKey(token)) : null;
  if (!key) throw new AppError("unauthorized", "Unknown API key");
  if (key.revokedAt) throw new AppError("unauthorized", `API key "${key.name}" was revoked`);
  const now = new Date();
  if (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) > LAST_USED_RESOLUTION_MS)
    await markKeyUsed(db.client, key.id, now);
  return key;
}
