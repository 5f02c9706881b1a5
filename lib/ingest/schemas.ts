// The callback message of the tool-result protocol (seed: tool-result-callback-protocol), as zod: the one
// source for validation, types and the OpenAPI document. Client-safe.
import { z } from "zod";
import { isStorableAsIs } from "../results/text-codec.ts";

export const ID_MAX = 512;
/** The longest tool name, in characters (and twice as many UTF-8 bytes: identifierMaxBytes). */
export const TOOL_NAME_MAX = 256;

const utf8 = new TextEncoder();

/**
 * UTF-8 bytes an identifier of at most `max` characters may take: twice `max`. PostgreSQL refuses an index entry
 * over 2,704 bytes, and a call is indexed by (group_id, id) together: 512 characters of CJK text each (1,536 bytes
 * each) made every write of that call fail (a 503 the sender retried for ever) while SQLite took it.
 */
export function identifierMaxBytes(max = ID_MAX): number {
  return 2 * max;
}

/** Why `value` cannot be an identifier of at most `max` characters (the rules below), or null when it can. */
export function identifierProblem(value: string, max = ID_MAX): string | null {
  if (value.length > max) return `over ${max} characters (${value.length})`;
  const bytes = utf8.encode(value).length;
  if (bytes > identifierMaxBytes(max)) return `over ${identifierMaxBytes(max)} bytes in UTF-8 (${bytes})`;
  if (!isStorableAsIs(value)) return "contains NUL or unpaired surrogate characters";
  return null;
}

/**
 * An identifier (group_id, id, call_id, tool name): PostgreSQL cannot store NUL and both databases would
 * turn a lone surrogate into U+FFFD, so such identifiers are rejected alike on both backends; and at most
 * twice `max` bytes in UTF-8, so the database's indexes can hold it (identifierMaxBytes).
 */
export function identifier(max = ID_MAX) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine(isStorableAsIs, { message: "must not contain NUL or unpaired surrogate characters" })
    .refine((value) => utf8.encode(value).length <= identifierMaxBytes(max), {
      message: `must be at most ${identifierMaxBytes(max)} bytes in UTF-8`,
    });
}

/**
 * The largest whole number an INTEGER column holds on every database: PostgreSQL's INTEGER is 32-bit and refuses
 * more (SQLite's holds 64 bits), so a larger step or count was a 500 there while SQLite stored it.
 */
export const INT32_MAX = 2_147_483_647;

/** A model turn index (a row's step): a whole number from 0 to INT32_MAX. */
export function stepNumber() {
  return z
    .number()
    .int()
    .min(0)
    .max(INT32_MAX, { message: `must be at most ${INT32_MAX}` });
}

/**
 * An ISO 8601 instant a timestamp column holds on every database: year 1 or later in UTC. PostgreSQL has no year 0
 * (it refuses "0000-01-01T00:00:00Z", and "0001-01-01T00:00:00+01:00" is in it), so such an instant was a 500 there
 * while SQLite stored it.
 */
export function isoInstant() {
  return z.iso
    .datetime({ offset: true })
    .refine((value) => new Date(value).getUTCFullYear() >= 1, { message: "must be in year 1 or later (UTC)" });
}

/**
 * "." and ".." cannot be reached by any URL (clients and servers resolve them as path segments, %2E too), so
 * a thread named that way could never be opened: refused (422) at every way in.
 */
export function isDotSegment(value: string): boolean {
  return value === "." || value === "..";
}

/** A thread's group_id: an identifier that a URL can address. */
export function groupIdentifier(max = ID_MAX) {
  return identifier(max).refine((value) => !isDotSegment(value), {
    message: 'must not be "." or ".." (no URL can address such a thread)',
  });
}

export const displaySegmentSchema = z
  .looseObject({
    type: z.string().describe('Segment type; "text" and "diff" are defined, others are skipped by renderers'),
    content: z.unknown().describe("Segment content: a string for text, {path, patch} for diff"),
  })
  .meta({ id: "DisplaySegment" });

export const callbackMessageSchema = z
  .looseObject({
    type: z.literal("tool_result", { error: 'type must be "tool_result"' }),
    group_id: groupIdentifier().describe("Conversation thread identifier of the original invocation"),
    id: identifier().describe("Tool call identifier of the original invocation"),
    call_id: identifier()
      .nullable()
      .optional()
      .describe("Secondary call identifier; echoed when the invocation had one"),
    text: z.string().describe("Result content: plain text or JSON-encoded data, stored byte-for-byte"),
    display_as: z.array(displaySegmentSchema).nullable().optional().describe("Display segments for human-facing UIs"),
    subscription: z
      .boolean()
      .nullable()
      .optional()
      .describe("true: this call started a subscription; later results append"),
  })
  .meta({ id: "ToolResultMessage" });

export type CallbackMessage = z.infer<typeof callbackMessageSchema>;

// Only web URLs are authorization URLs a person may be sent to (a javascript: or data: URL is refused).
function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * The callback protocol's other message: instead of a tool_result, a tool that needs the user's consent sends
 * {type: "oauth", group_id, id, call_id, auth_url}. It settles the call ("every invocation MUST eventually produce
 * either a tool_result or an oauth message"); the runtime shows the URL to the user.
 */
export const oauthMessageSchema = z
  .looseObject({
    type: z.literal("oauth", { error: 'type must be "tool_result" or "oauth"' }),
    group_id: groupIdentifier().describe("Conversation thread identifier of the original invocation"),
    id: identifier().describe("Tool call identifier of the original invocation"),
    call_id: identifier()
      .nullable()
      .optional()
      .describe("Secondary call identifier; echoed when the invocation had one"),
    auth_url: z
      .string()
      .max(8192)
      .refine(isWebUrl, { message: "must be an http(s) URL" })
      .refine(isStorableAsIs, { message: "must not contain NUL or unpaired surrogate characters" })
      .describe("The OAuth authorization URL the user must visit"),
  })
  .meta({ id: "OAuthMessage" });

export type OAuthMessage = z.infer<typeof oauthMessageSchema>;

/** What POST /api/callback accepts: a tool_result or an oauth message. */
export const callbackBodySchema = z.discriminatedUnion("type", [callbackMessageSchema, oauthMessageSchema], {
  error: 'type must be "tool_result" or "oauth"',
});
export type CallbackBody = CallbackMessage | OAuthMessage;

export const acceptedOAuthSchema = z
  .object({
    status: z.literal("accepted"),
    type: z.literal("oauth"),
    group_id: z.string(),
    id: z.string(),
    auth_url: z.string(),
  })
  .meta({ id: "AcceptedOAuth" });
export type AcceptedOAuth = z.infer<typeof acceptedOAuthSchema>;

export const acceptedResultSchema = z
  .object({
    status: z.literal("accepted"),
    group_id: z.string(),
    id: z.string(),
    result_id: z.number().int(),
    ordinal: z.number().int().describe("0 for a call's first result; subscriptions count up"),
    text_sha256: z.string(),
    late: z.boolean().describe("The call had passed its deadline when this result arrived"),
  })
  .meta({ id: "AcceptedResult" });

export type AcceptedResult = z.infer<typeof acceptedResultSchema>;
