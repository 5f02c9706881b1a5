// Tests for result flags: the "Error: " convention, invisible/bidi characters, secret-looking strings.
import { describe, expect, it } from "vitest";

import {
  MAX_LISTED_INVISIBLE,
  MAX_LISTED_SECRETS,
  findSecrets,
  maskSecrets,
  revealInvisible,
  scanFlags,
} from "./flags";
import type { SecretKind } from "./flags";

// Fake credentials are assembled at run time so this file never contains a string secret scanners flag.
const ALPHANUMERIC = "A1b2C3d4E5f6G7h8J9k0LmNoPqRsTuVwXyZ";
function fakeToken(prefix: string, length: number, alphabet = ALPHANUMERIC): string {
  let body = "";
  for (let i = 0; body.length < length; i += 1) body += alphabet.charAt((i * 7) % alphabet.length);
  return prefix + body;
}

const FAKES: Record<Exclude<SecretKind, "private_key" | "bearer_token">, string> = {
  aws_access_key: fakeToken("AK" + "IA", 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
  github_token: fakeToken("gh" + "p_", 36),
  anthropic_key: fakeToken("sk-" + "ant-api03-", 93, `${ALPHANUMERIC}_-`),
  openai_key: fakeToken("sk-" + "proj-", 120, `${ALPHANUMERIC}_-`),
  slack_token: `xo${"xb"}-1234567890-1234567890123-${fakeToken("", 24)}`,
  google_api_key: fakeToken("AI" + "za", 35),
  stripe_key: fakeToken("sk" + "_live_", 24),
};

const PEM_BODY =
  "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nZ2VuZXJhdGVkLWZvci10ZXN0cy1vbmx5LW5vdC1hLXJlYWwta2V5\n";
const PRIVATE_KEY = `-----BEGIN ${"PRIVATE"} KEY-----\n${PEM_BODY}-----END ${"PRIVATE"} KEY-----`;

describe("errorPrefix", () => {
  it.each([
    ["Error: API rate limit exceeded. Retry after 60 seconds.", true], // the seed's own example
    ["\n  Error: disk full", true],
    ["\uFEFFError: disk full", true],
    ["error: 3 lint findings", false],
    ["ERROR: disk full", false],
    ["Error:disk full", false],
    ["Errors: 0", false],
    ["Deployment completed successfully.", false],
    ["", false],
  ])("%j → %s", (text, expected) => {
    expect(scanFlags(text).errorPrefix).toBe(expected);
  });
});

describe("invisible characters", () => {
  it("lists bidi and zero-width characters with UTF-16 indexes", () => {
    const flags = scanFlags("pay\u202Eusd\u200B, \u2066x\u2069 \u061C \uFEFF");
    expect(flags.invisible).toEqual([
      { codePoint: "U+202E", index: 3 },
      { codePoint: "U+200B", index: 7 },
      { codePoint: "U+2066", index: 10 },
      { codePoint: "U+2069", index: 12 },
      { codePoint: "U+061C", index: 14 },
      { codePoint: "U+FEFF", index: 16 },
    ]);
    expect(flags.invisibleCount).toBe(6);
  });

  it("finds astral tag characters by code point (ASCII smuggling)", () => {
    const hidden = [..."rm -rf"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const flags = scanFlags(`ok 😀${hidden}`);
    expect(flags.invisibleCount).toBe(6);
    expect(flags.invisible[0]).toEqual({ codePoint: "U+E0072", index: 5 });
    expect(flags.invisible[1]).toEqual({ codePoint: "U+E006D", index: 7 });
    expect(revealInvisible(`a${hidden.slice(0, 4)}b`)).toBe("a⟨U+E0072⟩⟨U+E006D⟩b");
  });

  it("leaves neighbours of the ranges alone", () => {
    expect(scanFlags("\u200A\u2010\u2065\u206A\u{E0080}😀 é ñ 中文").invisibleCount).toBe(0);
  });

  it("caps the list but counts everything", () => {
    const flags = scanFlags("\u200B".repeat(150));
    expect(flags.invisible).toHaveLength(MAX_LISTED_INVISIBLE);
    expect(flags.invisibleCount).toBe(150);
  });

  it("reveals invisible characters as visible markers", () => {
    expect(revealInvisible("pay\u202Eusd\u200B")).toBe("pay⟨U+202E⟩usd⟨U+200B⟩");
    const clean = "nothing hidden here";
    expect(revealInvisible(clean)).toBe(clean);
  });
});

describe("secrets", () => {
  it.each(Object.entries(FAKES))("finds a %s and its exact span", (kind, token) => {
    const text = `config: ${token}\nnext line`;
    expect(findSecrets(text)).toEqual([{ kind, start: 8, end: 8 + token.length }]);
  });

  it("finds a bearer token and marks only the token", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    const text = `curl -H "Authorization: Bearer ${jwt}" https://api.example.com`;
    const start = text.indexOf(jwt);
    expect(findSecrets(text)).toEqual([{ kind: "bearer_token", start, end: start + jwt.length }]);
  });

  it("finds a PEM private key block from BEGIN to END", () => {
    const text = `key:\n${PRIVATE_KEY}\ndone`;
    expect(findSecrets(text)).toEqual([{ kind: "private_key", start: 5, end: 5 + PRIVATE_KEY.length }]);
  });

  it("finds an RSA key pasted into a JSON string", () => {
    const rsa = `-----BEGIN RSA ${"PRIVATE"} KEY-----\\nMIIEpAIBAAKCAQEA0Z3\\n-----END RSA ${"PRIVATE"} KEY-----`;
    const text = `{"key": "${rsa}"}`;
    expect(findSecrets(text)).toEqual([{ kind: "private_key", start: 9, end: 9 + rsa.length }]);
  });

  it("covers the body of a truncated key that has no END line", () => {
    const header = `-----BEGIN OPENSSH ${"PRIVATE"} KEY-----`;
    const text = `${header}\n${PEM_BODY}\n[output truncated]`;
    const body = PEM_BODY.trimEnd();
    expect(findSecrets(text)).toEqual([{ kind: "private_key", start: 0, end: header.length + 1 + body.length }]);
  });

  it("does not flag public keys or certificates", () => {
    expect(findSecrets("-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----")).toEqual([]);
  });

  it.each([
    ["a word with sk-", "use sk-learn-preprocessing-pipeline-steps for this"],
    ["sk- inside a word", "task-12345678901234567890abcd"],
    ["an AKIA id glued to a word", `X${FAKES.aws_access_key}`],
    ["an AKIA id that runs on", `${FAKES.aws_access_key}X`],
    ["bearer in prose", "the bearer responsibilities are listed below"],
    ["a short bearer", "Authorization: Bearer abc123"],
    ["a placeholder", "Authorization: Bearer <token>"],
  ])("does not flag %s", (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it("keeps spans sorted and non-overlapping", () => {
    const text = `${FAKES.github_token} and Bearer ${FAKES.openai_key} then ${FAKES.aws_access_key}`;
    const spans = findSecrets(text);
    expect(spans.map((span) => span.kind)).toEqual(["github_token", "bearer_token", "aws_access_key"]);
  });

  it("masks each span to its first four characters", () => {
    const text = `aws ${FAKES.aws_access_key} gh ${FAKES.github_token}.`;
    const masked = maskSecrets(text, scanFlags(text).secrets);
    expect(masked).toBe("aws AKIA…[masked aws_access_key] gh ghp_…[masked github_token].");
  });

  it("ignores out-of-range, empty and overlapping spans when masking", () => {
    const masked = maskSecrets("abcdefghij", [
      { kind: "openai_key", start: 2, end: 6 },
      { kind: "openai_key", start: 4, end: 8 },
      { kind: "openai_key", start: 7, end: 7 },
      { kind: "openai_key", start: 8, end: 40 },
    ]);
    expect(masked).toBe("abcdef…[masked openai_key]ghij");
  });
});

describe("scanFlags on 5 MB", () => {
  it("counts every occurrence in a large result", () => {
    const chunk = `row with a hidden \u200B mark and key ${FAKES.aws_access_key} plus padding text to fill the line\n`;
    const repeats = Math.ceil((5 * 1024 * 1024) / chunk.length);
    const flags = scanFlags(chunk.repeat(repeats));
    expect(flags.invisibleCount).toBe(repeats);
    expect(flags.invisible).toHaveLength(MAX_LISTED_INVISIBLE);
    expect(flags.secretCount).toBe(repeats);
    expect(flags.secrets).toHaveLength(MAX_LISTED_SECRETS);
    expect(flags.secrets[1]?.start).toBe(chunk.length + chunk.indexOf("AKIA"));
  });

  // Inputs shaped to trigger quadratic backtracking in a careless regex; these finish in linear time.
  it.each([
    ["sk- repeated", "sk-".repeat(1_750_000), 0],
    ["ghp_ repeated", "ghp_".repeat(1_300_000), 0],
    ["eyJ repeated after Bearer", `Bearer ${"eyJ".repeat(1_750_000)}`, 0],
    // Each header has no body and no END line, so each is its own (header-only) span.
    ["unclosed BEGIN lines", `-----BEGIN ${"PRIVATE"} KEY-----\n`.repeat(180_000), 180_000],
    ["BEGIN lines without a label end", "-----BEGIN ".repeat(480_000), 0],
    ["one long token run", `${"A".repeat(5_000_000)}`, 0],
  ])("stays linear on %s", (_name, text, secretCount) => {
    expect(text.length).toBeGreaterThan(4_000_000);
    expect(scanFlags(text).secretCount).toBe(secretCount);
  });
});
