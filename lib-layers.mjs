// The layers of lib/, lowest first, and what each folder holds. A folder imports only from folders in LOWER layers —
// never sideways, never up — so no two lib folders can import each other, directly or around a loop. A new lib
// folder must be placed here: linting stops with a message until it is (eslint.config.mjs), and the directory map
// in docs/architecture.md is generated from this list (`npm run docs:generate`; scripts/docs/generate.test.ts fails
// when the committed map differs). Files directly in lib/ (config.ts, config-settings.ts) sit below every layer.
export const LIB_LAYERS = [
  {
    note: "foundations: HTTP primitives and pure analysis, no other lib folder",
    folders: {
      http: "request handling: body limits, JSON and query parsing, the error type and its status map, replies, the Next and Node adapters",
      results: "pure result analysis: envelope, MCP content, output schema, flags, display segments, text codec",
      formats: "vendor transcript adapters (Anthropic, OpenAI Chat and Responses, Gemini, MCP, agent stream)",
      pricing: "the price table: per-million-token prices by model, with its date and source (overridable)",
    },
  },
  {
    note: "the database client; replay renderers (pure, over formats); model targets and API clients",
    folders: {
      db: "Prisma clients, the database URL, migrations (WASM schema engine), driver transactions, bulk rows, shared select shapes",
      replay: "vendor-shaped message history at step N (the adapters run backwards)",
      models: "model targets (TOOLSCOPE_MODELS) and one streaming client per model API",
    },
  },
  { note: "who may call what", folders: { access: "access levels, sessions, API keys, Host and Origin checks, CSP" } },
  {
    note: "the endpoint pipeline",
    folders: { api: "endpoint(): access check, handler, error mapping, refusal limit" },
  },
  {
    note: "what pages may show",
    folders: { audit: "import custody marks, secret masking for pages, the access log of reveals and exact reads" },
  },
  {
    note: "in the path, below the domains that use them",
    folders: {
      outbox: "the durable outbox of outgoing deliveries: lease, backoff, per-key order, dead letters, signing",
      intercept: "breakpoint and fault rules, held results, the in-path audit log (Intervention rows)",
    },
  },
  {
    note: "alerts: evaluated where results are committed (ingest) and by their sweeper; sent through the outbox",
    folders: {
      alerts:
        "alert rules, their evaluation and grouping, window state, notify destinations (TOOLSCOPE_NOTIFY), history",
    },
  },
  {
    note: "domains",
    folders: {
      ingest: "the callback protocol: parsing, signatures, routing rules, group commit, the audit log and its journal",
      calls: "one call and what came back for it (the call page), deadlines and timeouts",
      subscriptions: "active and cancelled subscriptions (the /subscriptions page)",
      users: "access administration: keys, users, setup and sign-in routes",
      "model-turns":
        "the one store of model turns (OTLP chat spans, imports, forks): model, tokens, latency, stop reason",
    },
  },
  {
    note: "read models and domains over the ones below",
    folders: {
      events: "the runtime's trace events: call registration, model output, errors, the timeline",
      pending: "pending calls across threads (the /pending page)",
      threads: "the threads list and the thread timeline (windows, search, locate)",
      health: "health, on a database connection of its own",
      insights: "how results look across every thread (trigger-kept tallies)",
      deliveries: "the audit log's pages and bodies",
      lifecycle: "retention, prune, the storage view",
      relay: "in the path: relay routes, holds, answers as the tool, approvals, the outbox's pages",
    },
  },
  {
    note: "whole threads and their views",
    folders: {
      overview: "the dashboard's overview (the / page)",
      traces: "import, export, replay and compare of whole threads",
      otel: "the OTLP receiver: decoding, span conventions → threads, span store, re-mapping",
      explorer: "every call across threads (the calls explorer)",
    },
  },
  {
    note: "a fork is a thread written like an import, replayed, sent to a model",
    folders: { forks: "fork and re-run: edits, model turns as server-side work, answers from the recording, Continue" },
  },
  {
    note: "the edges",
    folders: {
      openapi: "the OpenAPI document, generated from the zod schemas",
      server: "the production HTTP server, its lean routes and background workers",
      client: "a typed client for runtimes",
    },
  },
  { note: "test support, imports anything", folders: { testing: "real databases, factories, server processes" } },
];
