// Why each package in package.json is there, one line each. docs/architecture.md's dependency table is generated
// from this list (`npm run docs:generate`); a package without a line here, or a line for a package no longer in
// package.json, fails scripts/docs/generate.test.ts.
export const DEPENDENCY_REASONS: Record<string, string> = {
  "@noble/hashes":
    "sha256 of content a replay sends as a text reference, in the browser as on the server (audited, no dependencies)",
  "@prisma/adapter-better-sqlite3": "Prisma's driver adapter for the embedded SQLite database",
  "@prisma/adapter-pg": "Prisma's driver adapter for PostgreSQL",
  "@prisma/client": "the generated query clients (one per provider) run on Prisma's WASM query compiler",
  "@prisma/driver-adapter-utils":
    "binds a driver adapter to the migration engine (`bindMigrationAwareSqlAdapterFactory`), so migrations run offline",
  "@prisma/schema-engine-wasm":
    "Prisma's schema engine compiled to WebAssembly: migrations apply without the CLI's downloaded native engine",
  "@tanstack/react-query": "client-side reads and polling of the JSON APIs, one query-key factory",
  "@tanstack/react-virtual": "virtualised rows for 100k-call threads, the waterfall and long diffs",
  ajv: "validates tool results against a declared `outputSchema` (JSON Schema)",
  "better-auth":
    "sign-in, sessions and scrypt password hashing through its Prisma adapter, on SQLite and PostgreSQL (exposed mode); API keys are Toolscope's own (random 256-bit tokens stored as SHA-256)",
  "better-sqlite3": "the SQLite driver (WAL, synchronous durable commits) under Prisma and the group-commit writers",
  diff: "the line and sequence diffs of compare (Myers' algorithm, with an edit limit)",
  "eventsource-parser":
    "server-sent events from model APIs (forks) and `text/event-stream` captures (import); forks call the APIs with plain `fetch` so the body sent is exactly the replay's and no SDK retries on its own (3.x: Node 20)",
  "lossless-json": "parses and writes JSON numbers a double cannot hold (integers above 2^53) with their source digits",
  next: "the web framework: pages, route handlers, the production build",
  pg: "the PostgreSQL driver under Prisma's pg adapter and the group-commit writers",
  prisma: "the Prisma CLI's `generate` for both providers' clients (run at install)",
  protobufjs:
    "decodes OTLP protobuf and encodes its responses and `google.rpc.Status`, from a descriptor compiled from the vendored opentelemetry-proto files (`lib/otel/proto`, Apache-2.0; `npm run otel:proto`)",
  react: "the UI",
  "react-diff-view": "renders unified and split diffs of `diff` display segments",
  "react-dom": "the UI",
  "server-only": "makes Next's build refuse a server module imported by a client component",
  tsx: "runs the TypeScript server entry, CLI and scripts under Node (`scripts/register.mjs`)",
  zod: "every request, setting and OpenAPI schema",
  "@ai-sdk/otel": "dev: the AI SDK's OpenTelemetry integration, for the OTLP tests (7.x, runs on Node 20 here)",
  "@anthropic-ai/sdk": "dev: fixtures typed with its request and stream types; replays type-checked against them",
  "@axe-core/playwright":
    "dev: axe-core in the e2e browser (0 serious or critical violations on every page, light and dark)",
  "@google/genai": "dev: Gemini request and stream types for fixtures and replays (2.32: the newest without Node ≥ 22)",
  "@modelcontextprotocol/sdk": "dev: a live stdio MCP capture inside the test suite",
  "@modelcontextprotocol/server-everything": "dev: the MCP server that capture talks to",
  "@opentelemetry/api": "dev: the OpenTelemetry API the OTLP tests trace with (2.x line: Node 20)",
  "@opentelemetry/exporter-trace-otlp-http": "dev: the real OTLP/JSON exporter the tests send with",
  "@opentelemetry/exporter-trace-otlp-proto": "dev: the real OTLP/protobuf exporter the tests and benchmarks send with",
  "@opentelemetry/otlp-transformer": "dev: the exporters' serializers, to build OTLP payloads in tests",
  "@opentelemetry/resources": "dev: imported by no file (sdk-trace-node brings its own copy): a candidate for removal",
  "@opentelemetry/sdk-trace-base": "dev: span processors for the test tracer provider",
  "@opentelemetry/sdk-trace-node": "dev: the Node tracer provider the OTLP tests register",
  "@playwright/test": "dev: end-to-end tests in the system Chromium",
  "@traceloop/instrumentation-openai":
    "dev: OpenLLMetry's real OpenAI instrumentation, so the tests read the spans it really emits",
  "@types/better-sqlite3": "dev: types",
  "@types/node": "dev: types",
  "@types/pg": "dev: types",
  "@types/react": "dev: types",
  "@types/react-dom": "dev: types",
  ai: "dev: the Vercel AI SDK with its mock model, telemetry in both modes, for the OTLP tests",
  eslint: "dev: lint, with the architecture's import boundaries",
  "eslint-config-next": "dev: Next's lint rules",
  openai: "dev: request types for fixtures and replays, and the real client for the OpenLLMetry test (6.49: Node 20)",
  prettier: "dev: one formatter, checked by `npm test`",
  typescript: "dev: the type checker",
  vitest: "dev: unit and integration tests (4.x: Node 20)",
};
