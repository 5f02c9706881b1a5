// Owns the warning flags on a result text: the "Error: " convention, invisible/bidi characters, secret-looking strings.
import { decodeUnicodeEscapes, originalSpan } from "./secret-forms.ts";
//
// Every scan here is linear in the text length: results can be 5 MB, and a regex that backtracks
// quadratically on hostile input would stall ingestion. Indexes are UTF-16 code unit offsets (JS string indexes).

export type SecretKind =
  | "aws_access_key"
  | "github_token"
  | "anthropic_key"
  | "openai_key"
  | "slack_token"
  | "google_api_key"
  | "stripe_key"
  | "bearer_token"
  | "private_key";

export type SecretSpan = { kind: SecretKind; start: number; end: number };
export type InvisibleChar = { codePoint: string; index: number };

export type ResultFlags = {
  /** The text starts with "Error: " after optional leading whitespace (see hasErrorPrefix). */
  errorPrefix: boolean;
  /** The first MAX_LISTED_INVISIBLE occurrences; invisibleCount counts all of them. */
  invisible: InvisibleChar[];
  invisibleCount: number;
  /** The first MAX_LISTED_SECRETS spans, sorted and non-overlapping; secretCount counts all of them. */
  secrets: SecretSpan[];
  secretCount: number;
};

export const MAX_LISTED_INVISIBLE = 100;
export const MAX_LISTED_SECRETS = 1000;

export function scanFlags(text: string): ResultFlags {
  const invisible = scanInvisible(text);
  const secrets = findSecrets(text);
  return {
    errorPrefix: hasErrorPrefix(text),
    invisible: invisible.listed,
    invisibleCount: invisible.count,
    secrets: secrets.slice(0, MAX_LISTED_SECRETS),
    secretCount: secrets.length,
  };
}

/**
 * The seed's convention is the exact, case-sensitive prefix "Error: ". Leading whitespace (including a BOM)
 * is skipped because templated tool output often starts with a newline and the model reads it the same way.
 * Lowercase "error:" does NOT count: it is common in successful output (compiler or linter findings).
 */
export function hasErrorPrefix(text: string): boolean {
  let i = 0;
  while (i < text.length && isLeadingSpace(text.charCodeAt(i))) i += 1;
  return text.startsWith("Error: ", i);
}

function isLeadingSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xfeff;
}

// ─── invisible and bidi characters ───────────────────────────────────────────────────────────────

/**
 * Zero-width and bidi controls (U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+FEFF) plus
 * U+061C ARABIC LETTER MARK — a bidi control the Trojan Source paper (CVE-2021-42574) lists next to LRM/RLM.
 */
function isInvisibleBmp(c: number): boolean {
  return (
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2064) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0xfeff ||
    c === 0x061c
  );
}

// Tag characters U+E0000–U+E007F are astral: high surrogate U+DB40 followed by a low surrogate U+DC00–U+DC7F.
// They spell hidden ASCII ("ASCII smuggling") that models read but people do not see.
function tagLength(text: string, index: number): number {
  if (text.charCodeAt(index) !== 0xdb40) return 0;
  const low = text.charCodeAt(index + 1);
  return low >= 0xdc00 && low <= 0xdc7f ? 2 : 0;
}

function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

function scanInvisible(text: string): { listed: InvisibleChar[]; count: number } {
  const listed: InvisibleChar[] = [];
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    // Cheap reject: every character we look for is ≥ U+061C.
    if (c < 0x061c) continue;
    let codePoint = -1;
    if (isInvisibleBmp(c)) codePoint = c;
    else if (tagLength(text, i) === 2) {
      codePoint = 0xe0000 + (text.charCodeAt(i + 1) - 0xdc00);
    }
    if (codePoint < 0) continue;
    count += 1;
    if (listed.length < MAX_LISTED_INVISIBLE) listed.push({ codePoint: codePointLabel(codePoint), index: i });
    if (codePoint > 0xffff) i += 1;
  }
  return { listed, count };
}

/** Replaces every invisible/bidi character with a visible ⟨U+XXXX⟩ marker, for an audit view of the text. */
export function revealInvisible(text: string): string {
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x061c) continue;
    let width = 0;
    let codePoint = c;
    if (isInvisibleBmp(c)) width = 1;
    else if (tagLength(text, i) === 2) {
      width = 2;
      codePoint = 0xe0000 + (text.charCodeAt(i + 1) - 0xdc00);
    }
    if (width === 0) continue;
    parts.push(text.slice(copiedUpTo, i), `⟨${codePointLabel(codePoint)}⟩`);
    copiedUpTo = i + width;
    i += width - 1;
  }
  if (copiedUpTo === 0) return text;
  parts.push(text.slice(copiedUpTo));
  return parts.join("");
}

// ─── secrets ─────────────────────────────────────────────────────────────────────────────────────

// One pass, one regex. Why it stays linear: every alternative is a literal prefix followed by a single
// character-class run with no condition after an unbounded run, so an attempt either fails within a
// bounded number of characters or consumes the whole run; and the lookbehind rejects any start inside
// a token, so runs are never re-scanned from their middle (e.g. "sk-sk-sk-…" or "ghp_ghp_…").
const SECRET_PATTERN = new RegExp(
  [
    "(?<![A-Za-z0-9_\\-])(?:",
    "((?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9]))", // 1 aws_access_key
    "|(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})", // 2 github_token
    "|(sk-ant-[A-Za-z0-9_\\-]{20,})", // 3 anthropic_key (before openai: same "sk-" prefix)
    "|(sk-[A-Za-z0-9_\\-]{20,})", // 4 openai_key (classic, sk-proj-, sk-svcacct-, sk-admin-)
    "|(xox[baprs]-[A-Za-z0-9\\-]{10,})", // 5 slack_token
    "|(AIza[0-9A-Za-z_\\-]{35}(?![A-Za-z0-9_\\-]))", // 6 google_api_key
    "|((?:sk|rk)_live_[0-9A-Za-z]{16,})", // 7 stripe_key
    "|[Bb]earer[ \\t]{1,8}([A-Za-z0-9._~+/\\-]{16,}=*)", // 8 bearer_token (span = the token only)
    ")",
  ].join(""),
  "g",
);

const GROUP_KINDS: readonly SecretKind[] = [
  "aws_access_key",
  "github_token",
  "anthropic_key",
  "openai_key",
  "slack_token",
  "google_api_key",
  "stripe_key",
  "bearer_token",
];

const HAS_DIGIT = /[0-9]/;

// Words like "sk-learn-preprocessing-pipeline" or "Bearer responsibilities" match the shape; real keys and
// tokens are random and (practically always) contain a digit.
function looksRandom(kind: SecretKind, token: string): boolean {
  if (kind === "openai_key" || kind === "bearer_token") return HAS_DIGIT.test(token);
  return true;
}

/**
 * All secret-looking spans, sorted by start, overlaps removed (the earlier, then longer, span wins) — also those
 * written with JSON \uXXXX escapes (a provider's error body quoting a key), as spans of the escaped text.
 */
export function findSecrets(text: string): SecretSpan[] {
  const spans = findPlainSecrets(text);
  const view = decodeUnicodeEscapes(text);
  if (view)
    for (const span of findPlainSecrets(view.text)) spans.push({ kind: span.kind, ...originalSpan(view, span) });
  return removeOverlaps(spans);
}

function findPlainSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = findPrivateKeys(text);
  const pattern = new RegExp(SECRET_PATTERN.source, SECRET_PATTERN.flags);
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    for (let group = 1; group <= GROUP_KINDS.length; group += 1) {
      const token = match[group];
      const kind = GROUP_KINDS[group - 1];
      if (token === undefined || kind === undefined) continue;
      // Every group ends where the whole match ends, so its start follows from its length.
      const end = match.index + match[0].length;
      if (looksRandom(kind, token)) spans.push({ kind, start: end - token.length, end });
      break;
    }
  }
  return removeOverlaps(spans);
}

function removeOverlaps(spans: SecretSpan[]): SecretSpan[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SecretSpan[] = [];
  let lastEnd = -1;
  for (const span of spans) {
    if (span.start < lastEnd) continue;
    kept.push(span);
    lastEnd = span.end;
  }
  return kept;
}

// PEM armour lines. The label class excludes "-", so after the bounded run only "-----" can follow: linear.
const PEM_MARKER = /-----(BEGIN|END) ([A-Z0-9 ]{1,60})-----/g;

/**
 * A private key is the span from "-----BEGIN … PRIVATE KEY-----" to the next END line with the same label.
 * Without one (a truncated result) the span runs over the base64 body after the header. All armour lines
 * are tokenised in one pass and each label's END positions are consumed by a forward-only cursor, so
 * thousands of unclosed BEGIN lines cannot make this quadratic.
 */
function findPrivateKeys(text: string): SecretSpan[] {
  if (!text.includes("PRIVATE KEY-----")) return [];
  type Marker = { start: number; end: number; label: string };
  const begins: Marker[] = [];
  const endsByLabel = new Map<string, { positions: Marker[]; cursor: number }>();
  const marker = new RegExp(PEM_MARKER.source, PEM_MARKER.flags);
  for (let match = marker.exec(text); match !== null; match = marker.exec(text)) {
    const [whole, which, label = ""] = match;
    if (!label.includes("PRIVATE KEY")) continue;
    const found = { start: match.index, end: match.index + whole.length, label };
    if (which === "BEGIN") begins.push(found);
    else {
      const ends = endsByLabel.get(label) ?? { positions: [], cursor: 0 };
      ends.positions.push(found);
      endsByLabel.set(label, ends);
    }
  }
  const spans: SecretSpan[] = [];
  let coveredUpTo = 0;
  for (const begin of begins) {
    if (begin.start < coveredUpTo) continue; // inside the previous key (or its body)
    const ends = endsByLabel.get(begin.label);
    while (
      ends !== undefined &&
      ends.cursor < ends.positions.length &&
      (ends.positions[ends.cursor]?.start ?? 0) < begin.end
    ) {
      ends.cursor += 1;
    }
    const close = ends?.positions[ends.cursor];
    const end = close !== undefined ? close.end : endOfPemBody(text, begin.end);
    spans.push({ kind: "private_key", start: begin.start, end });
    coveredUpTo = end;
  }
  return spans;
}

// Base64 body characters plus whitespace and "\" (keys pasted inside JSON strings arrive as "…\nMIIE…").
function endOfPemBody(text: string, from: number): number {
  let end = from;
  for (let i = from; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    const isBody =
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2b /* + */ ||
      c === 0x2f /* / */ ||
      c === 0x3d /* = */ ||
      c === 0x5c; /* \ */
    const isSpace = c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
    if (isBody) end = i + 1;
    else if (!isSpace) break;
  }
  return end;
}

/**
 * Replaces each span with its first 4 characters + "…[masked <kind>]". Spans out of range, empty, or
 * overlapping an earlier one are ignored, so a stale or hand-built list cannot corrupt the output.
 */
export function maskSecrets(text: string, secrets: readonly SecretSpan[]): string {
  const ordered = [...secrets].sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (const span of ordered) {
    const valid =
      Number.isInteger(span.start) &&
      Number.isInteger(span.end) &&
      span.start >= copiedUpTo &&
      span.start < span.end &&
      span.end <= text.length;
    if (!valid) continue;
    parts.push(text.slice(copiedUpTo, span.start), `${text.slice(span.start, span.start + 4)}…[masked ${span.kind}]`);
    copiedUpTo = span.end;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(copiedUpTo));
  return parts.join("");
}
