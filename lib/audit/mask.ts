// Secrets leave the server masked: every string of a page's DTO goes through a SecretMasker before it is
// rendered or serialised (HTML, RSC payload, the JSON APIs the pages poll). A masked value keeps its first 4
// characters and its kind, plus a fingerprint — an HMAC of the value under a key that never leaves this
// process — by which POST /api/secrets/reveal finds it again. The fingerprint says nothing about the value
// (not even to someone who guesses it), and changes when the server restarts: a page rendered before a
// restart has to be reloaded to reveal. The exact text stays reachable through the raw audit routes.
import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { namedSecret } from "../config.ts";
import { readModelTargets } from "../models/targets.ts";
import { findSecrets, type SecretKind } from "../results/flags.ts";
import { knownKeySpans, replaceSpans } from "../results/secret-forms.ts";
import type { MaskedSecret, RevealScope } from "./schemas.ts";

export type { MaskedSecret, RevealScope };

// One key per process, shared through globalThis: Next may load this module once per bundle (pages and
// route handlers), and a page's fingerprints must match the reveal endpoint's.
const globalForMask = globalThis as typeof globalThis & { toolscopeMaskKey?: Buffer };

function maskKey(): Buffer {
  globalForMask.toolscopeMaskKey ??= randomBytes(32);
  return globalForMask.toolscopeMaskKey;
}

export function fingerprintOf(value: string): string {
  return createHmac("sha256", maskKey()).update(value, "utf8").digest("hex").slice(0, 12);
}

export function maskToken(value: string, kind: SecretKind, fingerprint = fingerprintOf(value)): string {
  return `${value.slice(0, 4)}…[masked ${kind} #${fingerprint}]`;
}

/** What a run of a provider key's characters becomes: nothing of the key, and no reveal (keys stay on the server). */
export const PROVIDER_KEY_TOKEN = "[provider key masked]";

/** The keys of the configured model targets (TOOLSCOPE_MODELS' apiKeyEnv variables) that are set. */
function configuredProviderKeys(): string[] {
  return readModelTargets().targets.flatMap((target) => {
    const key = target.apiKeyEnv ? namedSecret(target.apiKeyEnv) : null;
    return key ? [key] : [];
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Masks strings and collects what it masked, so a page can offer each value's reveal. */
export class SecretMasker {
  readonly #found = new Map<string, MaskedSecret>();

  readonly #providerKeys = configuredProviderKeys();

  /**
   * The text with every secret-looking span (lib/results/flags findSecrets, escaped forms included) replaced by its
   * masked token, after every run of a configured provider key's characters (a call id or name cut from the key,
   * the key JSON-escaped) is replaced by a token that shows none of them.
   */
  text(text: string): string {
    const keyRuns = knownKeySpans(text, this.#providerKeys);
    const withoutKeys = replaceSpans(text, keyRuns, () => PROVIDER_KEY_TOKEN);
    const spans = findSecrets(withoutKeys);
    if (spans.length === 0) return withoutKeys;
    const parts: string[] = [];
    let copiedUpTo = 0;
    for (const span of spans) {
      const value = withoutKeys.slice(span.start, span.end);
      const fingerprint = fingerprintOf(value);
      if (!this.#found.has(fingerprint))
        this.#found.set(fingerprint, { fingerprint, kind: span.kind, preview: value.slice(0, 4) });
      parts.push(withoutKeys.slice(copiedUpTo, span.start), maskToken(value, span.kind, fingerprint));
      copiedUpTo = span.end;
    }
    parts.push(withoutKeys.slice(copiedUpTo));
    return parts.join("");
  }

  /**
   * A copy of a JSON-shaped DTO with every string (object keys included) masked. DTOs are plain JSON
   * (ISO strings, no Maps): the copy is made by a JSON round trip, whose reviver masks on the way back.
   */
  deep<T>(value: T): T {
    const json = JSON.stringify(value);
    if (json === undefined) return value;
    const copy: T = JSON.parse(json, (_key, item: unknown) => {
      if (typeof item === "string") return this.text(item);
      if (!isPlainObject(item)) return item;
      const entries = Object.entries(item);
      if (entries.every(([key]) => this.text(key) === key)) return item;
      return Object.fromEntries(entries.map(([key, inner]) => [this.text(key), inner]));
    });
    return copy;
  }

  get secrets(): MaskedSecret[] {
    return [...this.#found.values()];
  }
}

/** A DTO with its strings masked, and the list of what was masked (for the page's reveal panel). */
export function maskDto<T>(value: T): { value: T; secrets: MaskedSecret[] } {
  const masker = new SecretMasker();
  const masked = masker.deep(value);
  return { value: masked, secrets: masker.secrets };
}
