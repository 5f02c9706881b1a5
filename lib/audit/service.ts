// Revealing one masked value, and the access log: every reveal, and every read of an exact (unmasked) copy —
// an export, a raw result text, a raw delivery body — is recorded with who, when and what. The value itself
// is never recorded: the row it came from, its span and a sha256 prefix say which one it was.
import "server-only";
import { describePrincipal, type Principal } from "../access/principal.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { findSecrets, type SecretKind } from "../results/flags.ts";
import { sha256Hex } from "../results/hash.ts";
import { fingerprintOf, type RevealScope } from "./mask.ts";
import { findAccessRecords, insertAccessRecord, scanScopeTexts } from "./repository.ts";
import type { AccessAction, AccessRecordView, RevealAnswer, RevealRequest } from "./schemas.ts";

type Found = { value: string; kind: SecretKind; span: string };

// Strings inside JSON text (arguments, envelopes, raw vendor items) reach pages unescaped; a secret written
// with escapes in the stored text is found in its parsed strings.
const MAX_PARSED_CHARS = 20_000_000;

function findIn(text: string, fingerprint: string): Found | null {
  for (const span of findSecrets(text)) {
    const value = text.slice(span.start, span.end);
    if (fingerprintOf(value) === fingerprint) return { value, kind: span.kind, span: `[${span.start},${span.end})` };
  }
  const start = text.trimStart()[0];
  if ((start !== "{" && start !== "[") || text.length > MAX_PARSED_CHARS) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const pending: unknown[] = [parsed];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      for (const span of findSecrets(item)) {
        const value = item.slice(span.start, span.end);
        if (fingerprintOf(value) === fingerprint) return { value, kind: span.kind, span: "(in a JSON string)" };
      }
    } else if (Array.isArray(item)) pending.push(...item);
    else if (typeof item === "object" && item !== null)
      for (const [key, inner] of Object.entries(item)) pending.push(key, inner);
  }
  return null;
}

async function locate(
  db: Database,
  scope: RevealScope,
  fingerprint: string,
): Promise<(Found & { target: string }) | null> {
  for await (const source of scanScopeTexts(db.client, scope)) {
    for (const text of source.texts) {
      if (text === null) continue;
      const found = findIn(text, fingerprint);
      if (found !== null) return { ...found, target: source.target };
    }
  }
  return null;
}

/** POST /api/secrets/reveal: the one value behind a masked "#fingerprint", recorded before it is answered. */
export async function revealSecret(options: {
  request: RevealRequest;
  principal: Principal;
  database?: Database;
  now?: Date;
}): Promise<RevealAnswer> {
  const db = options.database ?? (await getDatabase());
  const { fingerprint, scopes } = options.request;
  for (const scope of scopes) {
    const found = await locate(db, scope, fingerprint);
    if (found === null) continue;
    const record = await insertAccessRecord(db.client, {
      principal: describePrincipal(options.principal),
      action: "reveal",
      target: found.target,
      detail: `${found.kind} ${found.span} sha256:${sha256Hex(found.value).slice(0, 12)} (via ${scope.kind} ${scope.id})`,
      ...(options.now ? { at: options.now } : {}),
    });
    return { value: found.value, kind: found.kind, fingerprint, foundIn: found.target, record };
  }
  const where = scopes.map((scope) => `${scope.kind} ${JSON.stringify(scope.id)}`).join(" or ");
  throw new AppError(
    "not_found",
    `No masked value #${fingerprint} in ${where}; masks change when the server restarts, so reload the page and try again`,
    {
      path: "fingerprint",
    },
  );
}

/** Records a read of an exact copy (export, raw text, raw body): cheap, one row. */
export async function recordAccess(options: {
  principal: Principal;
  action: AccessAction;
  target: string;
  detail?: string | null;
  database?: Database;
}): Promise<void> {
  const db = options.database ?? (await getDatabase());
  await insertAccessRecord(db.client, {
    principal: describePrincipal(options.principal),
    action: options.action,
    target: options.target,
    detail: options.detail ?? null,
  });
}

/** The newest access records (reveals, exports, raw reads), optionally of one target. */
export async function listAccessRecords(
  options: { limit?: number; target?: string; database?: Database } = {},
): Promise<AccessRecordView[]> {
  const db = options.database ?? (await getDatabase());
  return findAccessRecords(db.client, { limit: options.limit ?? 100, target: options.target });
}
