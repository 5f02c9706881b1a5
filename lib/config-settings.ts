// Every environment variable Toolscope reads, declared once: its group, its default, what it means (the README's
// configuration table is generated from these lines: `npm run docs:generate`) and the zod schema that checks it.
// Values come in as text; an unset or blank variable is `undefined` and takes the default. Settings whose value is a
// JSON document (TOOLSCOPE_MODELS, TOOLSCOPE_RELAYS) or a URL with its own rules (DATABASE_URL) are read here as text
// and checked by the module that owns their shape, which reports problems naming the variable. No imports from lib/
// folders: every layer reads settings, so this sits below them all (defaults that a domain also names are checked
// equal by lib/config.test.ts).
import { z } from "zod";

export const SETTING_GROUPS = {
  server: "Server and storage",
  access: "Access",
  limits: "Limits of what is accepted",
  features: "Forks and the relay",
  lifecycle: "Retention and background work",
  development: "Scripts and tests",
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

export type SettingSpec<T> = {
  group: SettingGroup;
  /** The default as the table shows it. */
  shown: string;
  /** What it does, one Markdown sentence or two for the table. */
  doc: string;
  /** A value never repeated in an error message. */
  secret?: boolean;
  schema: z.ZodType<T, string | undefined>;
};

const text = () => z.string().optional();
const integer = (min: number, fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be a whole number from ${min} to ${max}`)
    .optional()
    .transform((value) => value ?? fallback);
const positiveOrUnset = () =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, "must be a positive number")
    .transform(Number)
    .refine((value) => value > 0, "must be a positive number")
    .optional();
const list = () =>
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(/[\s,]+/)
        .map((item) => item.trim())
        .filter(Boolean),
    );

function spec<T>(value: SettingSpec<T>): SettingSpec<T> {
  return value;
}

export const SETTINGS = {
  DATABASE_URL: spec({
    group: "server",
    shown: "unset → `./data/toolscope.db`",
    doc: "`file:/path/to.db` for SQLite elsewhere, `postgresql://user:pass@host:5432/db` for PostgreSQL ([operations](docs/operations.md#postgresql))",
    schema: text(),
  }),
  PORT: spec({ group: "server", shown: "`3000`", doc: "HTTP port", schema: integer(0, 3000, 65_535) }),
  HOST: spec({
    group: "server",
    shown: "unset → `127.0.0.1` and `::1`",
    doc: "interface to listen on; anything but loopback needs `TOOLSCOPE_SECRET` ([security](docs/security.md))",
    schema: text(),
  }),
  TOOLSCOPE_JOURNAL_DIR: spec({
    group: "server",
    shown: "beside the SQLite file; `./data` for PostgreSQL",
    doc: "where audit rows wait while the database cannot take them ([operations](docs/operations.md#locks-and-outages))",
    schema: text(),
  }),
  TOOLSCOPE_DB_LOCK_WAIT_MS: spec({
    group: "server",
    shown: "`5000`",
    doc: "how long a write waits for a database lock or a pooled connection before answering 503 + `Retry-After`; the wait never blocks the event loop",
    schema: integer(0, 5_000),
  }),
  TOOLSCOPE_MIGRATE_WAIT_MS: spec({
    group: "server",
    shown: "`30000`",
    doc: "how long a migration waits for another process to let go of the database before saying so",
    schema: integer(0, 30_000),
  }),
  TOOLSCOPE_SECRET: spec({
    group: "access",
    shown: "unset (local mode)",
    doc: "32+ random characters: turns access control on (sign-in for pages, API keys for programs) and signs session cookies",
    secret: true,
    schema: text(),
  }),
  TOOLSCOPE_PUBLIC_URL: spec({
    group: "access",
    shown: "unset",
    doc: "the URL users open, e.g. `https://toolscope.example.com`: allowed as Host and Origin; `https` makes the session cookie `Secure`",
    schema: text(),
  }),
  TOOLSCOPE_ALLOWED_HOSTS: spec({
    group: "access",
    shown: "unset",
    doc: "more host names Toolscope may be reached by (comma-separated), besides loopback names and IP addresses",
    schema: text(),
  }),
  TOOLSCOPE_ALLOWED_ORIGINS: spec({
    group: "access",
    shown: "unset",
    doc: "more origins (scheme://host[:port], comma-separated) whose pages may write, besides TOOLSCOPE_PUBLIC_URL's exact origin",
    schema: text(),
  }),
  TOOLSCOPE_CALLBACK_SECRET: spec({
    group: "access",
    shown: "unset",
    doc: "Standard Webhooks secret(s) (`whsec_…`, comma-separated for rotation); when set, unsigned callbacks and relayed results get 401 (in exposed mode an API key may stand in for the signature)",
    secret: true,
    schema: list(),
  }),
  TOOLSCOPE_MAX_BODY_BYTES: spec({
    group: "limits",
    shown: "`16777216` (16 MiB)",
    doc: "largest accepted request body; enforced while the body streams in (413)",
    schema: integer(1024, 16 * 1024 * 1024),
  }),
  TOOLSCOPE_MAX_INFLIGHT_BYTES: spec({
    group: "limits",
    shown: "`67108864` (64 MiB)",
    doc: "request body bytes this process holds at once; past it requests answer 503 + `Retry-After`",
    schema: integer(1024, 64 * 1024 * 1024),
  }),
  TOOLSCOPE_REFUSED_BODY_BYTES: spec({
    group: "limits",
    shown: "`65536`",
    doc: "how much of a refused delivery's body the audit log keeps (the full size and sha256 are always recorded)",
    schema: integer(0, 64 * 1024),
  }),
  TOOLSCOPE_REFUSAL_BURST: spec({
    group: "limits",
    shown: "`50`",
    doc: "refusals (400/401/403/404/409/413/415/422) allowed at once per API key or address on ingest routes before 429 + `Retry-After`; `0` turns the limit off",
    schema: integer(0, 50),
  }),
  TOOLSCOPE_REFUSALS_PER_MINUTE: spec({
    group: "limits",
    shown: "`60`",
    doc: "how fast that allowance refills; `0` turns the limit off",
    schema: integer(0, 60),
  }),
  TOOLSCOPE_MODELS: spec({
    group: "features",
    shown: "unset (no forks)",
    doc: "model targets forks may run against: a JSON array ([forks](docs/forks.md#model-targets)); each key is read from the variable its `apiKeyEnv` names",
    schema: text(),
  }),
  TOOLSCOPE_MODEL_TIMEOUT_MS: spec({
    group: "features",
    shown: "`120000`",
    doc: "default time limit of one model turn (a target's `timeoutMs` wins)",
    schema: integer(1_000, 120_000),
  }),
  TOOLSCOPE_RELAYS: spec({
    group: "features",
    shown: "unset (no relay)",
    doc: 'runtimes tools may post through Toolscope to: a JSON array of `{name, url, mode: "store-and-forward" \\| "pass-through", secretEnv?, timeoutMs?, maxAttempts?, maxAgeMs?}` ([api](docs/api.md#in-the-path-relay-breakpoints-answers-approvals-faults)); the signing secret is read from the variable `secretEnv` names',
    schema: text(),
  }),
  TOOLSCOPE_NOTIFY: spec({
    group: "features",
    shown: "unset (no alerts sent)",
    doc: 'where alert rules send: a JSON array of `{name, url, format: "webhook" \\| "slack", secretEnv?, timeoutMs?, maxAttempts?}` ([api](docs/api.md#alerts)); webhooks are signed with the secret in the variable `secretEnv` names',
    schema: text(),
  }),
  TOOLSCOPE_ALERTS_SWEEP_MS: spec({
    group: "features",
    shown: "`1000`",
    doc: "how often time-based alert conditions (timed out, pending too long, waiting for a person, new tools) and grouped messages are checked",
    schema: integer(100, 1_000, 60_000),
  }),
  TOOLSCOPE_PRICES: spec({
    group: "features",
    shown: "unset (the built-in table)",
    doc: 'model prices laid over the built-in table, USD per million tokens: `{"my-llama": {"input": 0.2, "output": 0.6, "cachedInput"?: 0.1}}` ([api](docs/api.md#model-turns-tokens-and-cost))',
    schema: text(),
  }),
  TOOLSCOPE_OUTBOX_MAX_ATTEMPTS: spec({
    group: "features",
    shown: "`50`",
    doc: "attempts a relayed delivery gets before it is a dead letter (a target's `maxAttempts` wins)",
    schema: integer(1, 50),
  }),
  TOOLSCOPE_OUTBOX_MAX_AGE_MS: spec({
    group: "features",
    shown: "`86400000` (24 h)",
    doc: "age after which an undelivered message is a dead letter (a target's `maxAgeMs` wins)",
    schema: integer(1_000, 24 * 3_600_000),
  }),
  TOOLSCOPE_OUTBOX_LEASE_MS: spec({
    group: "features",
    shown: "`120000`",
    doc: "how long a claimed outgoing message stays one process's; a process killed mid-attempt is taken over after it (same `webhook-id`)",
    schema: integer(1_000, 120_000),
  }),
  TOOLSCOPE_RETENTION_DAYS: spec({
    group: "lifecycle",
    shown: "unset (keep everything)",
    doc: "threads inactive this many days are removed, with all their rows; refused deliveries of no thread too",
    schema: positiveOrUnset(),
  }),
  TOOLSCOPE_RETENTION_MAX_BYTES: spec({
    group: "lifecycle",
    shown: "unset",
    doc: "when the data passes this size, the oldest threads are removed until it fits ([operations](docs/operations.md#retention))",
    schema: positiveOrUnset(),
  }),
  TOOLSCOPE_RETENTION_SWEEP_MS: spec({
    group: "lifecycle",
    shown: "`600000`",
    doc: "how often the server applies retention (only when one of the two above is set)",
    schema: integer(1, 600_000),
  }),
  TOOLSCOPE_DEADLINE_SWEEP_MS: spec({
    group: "lifecycle",
    shown: "`1000`",
    doc: "how often pending calls past their deadline are marked `timed_out`",
    schema: integer(10, 1_000),
  }),
  TOOLSCOPE_SKIP_BUILD: spec({
    group: "development",
    shown: "unset",
    doc: "`1`: `npm start` serves the existing build without checking that it is current (benchmarks, e2e)",
    schema: z.enum(["0", "1"], "must be 0 or 1").optional(),
  }),
  TOOLSCOPE_URL: spec({
    group: "development",
    shown: "`http://localhost:3000`",
    doc: "the server `npm run demo` loads its threads into",
    schema: text(),
  }),
  MIGRATION_DATABASE_URL: spec({
    group: "development",
    shown: "`TEST_DATABASE_URL`, else the local PostgreSQL",
    doc: "a PostgreSQL server `npm run db:migration:new` may connect to while it writes the PostgreSQL migration (it reads nothing there)",
    schema: text(),
  }),
  TOOLSCOPE_ROOT: spec({
    group: "development",
    shown: "the working directory",
    doc: "the project folder the Prisma schemas and migrations are read from",
    schema: text(),
  }),
  TEST_DATABASE_URL: spec({
    group: "development",
    shown: "local PostgreSQL if reachable",
    doc: "PostgreSQL server the integration tests create their throwaway databases on",
    schema: text(),
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = (typeof SETTINGS)[N] extends SettingSpec<infer T> ? T : never;
