// Client-safe shapes of the access API: keys and users as the settings page and `GET /api/keys` show them.
import { z } from "zod";

export const KEY_SCOPES = ["ingest", "read", "admin"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export const keyScopeSchema = z.enum(KEY_SCOPES);

export const createKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scope: keyScopeSchema,
});

export type ApiKeyView = {
  id: number;
  name: string;
  scope: KeyScope;
  /** The key's first characters, to recognise it ("tsk_Ab3x…"). */
  prefix: string;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** The answer to creating a key: the only time the key itself is shown. */
export type CreatedApiKey = ApiKeyView & { key: string };

export const createUserSchema = z.strictObject({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(256),
  name: z.string().trim().max(100).optional(),
});

export const setupSchema = createUserSchema.extend({ token: z.string().min(1).max(200) });

export type UserView = { id: string; email: string; name: string; createdAt: string };
