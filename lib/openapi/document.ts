// The OpenAPI 3.1 document of Toolscope's public HTTP contract, generated from the zod schemas the routes use.
/* eslint-disable max-lines -- one declarative document (data, not logic); its parts live beside their domains (forks, relay) */
import { z } from "zod";
import { revealRequestSchema } from "../audit/schemas.ts";
import { pruneRequestSchema } from "../lifecycle/schemas.ts";
import { FORK_NESTED_SCHEMAS, FORK_SCHEMAS, forkPaths } from "../forks/openapi.ts";
import { IN_PATH_SCHEMAS, inPathPaths } from "../relay/openapi.ts";
import { explorerQuerySchema } from "../explorer/schemas.ts";
import { ERROR_STATUS } from "../http/app-error.ts";
import {
  importIssueSchema,
  importQuerySchema,
  importResultSchema,
  replayQuerySchema,
  replayResultSchema,
} from "../traces/schemas.ts";
import {
  acceptedOAuthSchema,
  acceptedResultSchema,
  callbackMessageSchema,
  displaySegmentSchema,
  oauthMessageSchema,
} from "../ingest/schemas.ts";
import { exportTraceServiceResponseSchema, otlpStatusSchema } from "../otel/schemas.ts";
import {
  batchResultSchema,
  errorEventSchema,
  eventRecordedSchema,
  MAX_BATCH,
  messageEventSchema,
  outputTextEventSchema,
  reasoningEventSchema,
  subscriptionCancelEventSchema,
  toolCallEventSchema,
  toolDeclarationSchema,
  traceEventSchema,
} from "../events/schemas.ts";

const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    message: z.string(),
    path: z.string().optional().describe("The offending field, e.g. display_as[0].type"),
    details: z.unknown().optional(),
  }),
});

const healthState = z.enum(["ok", "degraded", "down"]);
const healthSchema = z.object({
  status: healthState.describe(
    "ok: 200; degraded (writes refused, or migrations pending) and down (unreachable): 503 with Retry-After",
  ),
  database: z.object({
    provider: z.enum(["sqlite", "postgresql"]),
    url: z.string(),
    state: healthState,
    writable: z.boolean(),
    latencyMs: z.number(),
    message: z.string().optional(),
  }),
  migrations: z.object({
    applied: z.array(z.string()),
    pending: z.array(z.string()),
    state: z.enum(["up_to_date", "pending", "unknown"]),
  }),
  counts: z
    .object({ threads: z.number(), calls: z.number(), results: z.number(), deliveries: z.number(), events: z.number() })
    .nullable(),
});
type JsonSchema = Record<string, unknown>;

/**
 * Every named schema (zod `.meta({ id })`) becomes a component; references between them point into
 * #/components/schemas. Input and output shapes are the same for these schemas (no transforms).
 */
function componentSchemas(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  // Nested schemas carrying their own id (e.g. DisplaySegment) are components too.
  const nested = {
    DisplaySegment: displaySegmentSchema,
    ToolDeclaration: toolDeclarationSchema,
    ImportIssue: importIssueSchema,
    ToolCallEvent: toolCallEventSchema,
    OutputTextEvent: outputTextEventSchema,
    MessageEvent: messageEventSchema,
    ReasoningEvent: reasoningEventSchema,
    ErrorEvent: errorEventSchema,
    SubscriptionCancelEvent: subscriptionCancelEventSchema,
    ...FORK_NESTED_SCHEMAS,
  };
  for (const [id, schema] of Object.entries(nested)) if (!registry.has(schema)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: "any",
    io: "input",
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

/** Query parameters from a zod object schema, one OpenAPI parameter per field. */
function queryParameters(
  schema: z.ZodObject,
): { name: string; in: "query"; required: boolean; schema: JsonSchema; description?: string }[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: property,
    ...(typeof property.description === "string" ? { description: property.description } : {}),
  }));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

/** The OTLP/HTTP trace receiver, served at /v1/traces and /api/otel/v1/traces. */
function otlpTracesPath(operationId: string) {
  const status = (description: string) => ({
    description,
    content: {
      "application/x-protobuf": { schema: { type: "string", format: "binary", description: "google.rpc.Status" } },
      "application/json": { schema: ref("OtlpStatus") },
    },
  });
  return {
    post: {
      operationId,
      summary: "OTLP/HTTP trace export (OpenTelemetry): spans become threads, calls, results and events",
      description:
        "An ExportTraceServiceRequest, protobuf or OTLP/JSON, optionally gzip (Content-Encoding: gzip; the inflated size is bounded by TOOLSCOPE_MAX_BODY_BYTES too). Answers in the request's encoding. Spans are stored once by trace and span id; GenAI semantic conventions, Vercel AI SDK and OpenInference spans are mapped onto the thread named by gen_ai.conversation.id (else the trace id). Authorization as for the other ingest routes (OTEL_EXPORTER_OTLP_HEADERS).",
      requestBody: {
        required: true,
        content: {
          "application/x-protobuf": { schema: { type: "string", format: "binary" } },
          "application/json": { schema: { type: "object" } },
        },
      },
      responses: {
        "200": {
          description: "Stored; partialSuccess counts refused spans and explains them (or carries warnings)",
          content: {
            "application/x-protobuf": { schema: { type: "string", format: "binary" } },
            "application/json": { schema: ref("ExportTraceServiceResponse") },
          },
        },
        "400": status("Undecodable protobuf, JSON or gzip"),
        "413": status("Body, or its gzip-inflated size, over TOOLSCOPE_MAX_BODY_BYTES"),
        "415": status(
          "Content-Type is not application/x-protobuf or application/json, or Content-Encoding is not gzip",
        ),
        "429": status("Too many spans being stored; retry after Retry-After"),
        "503": status(
          "Could not be stored; retry after Retry-After (an export stored in parts keeps the parts already stored, once)",
        ),
      },
    },
  };
}

// eslint-disable-next-line max-lines-per-function -- the document's declarative path table (data, not logic); each domain adds its paths here
export function buildOpenApiDocument(serverUrl?: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Toolscope",
      version: "1.0.0",
      description:
        "Observe LLM tool-call traces. Runtimes register calls (POST /api/events); tools post results (POST /api/callback, the tool_result message of the tool-result callback protocol). Every callback delivery is audited; a 2xx is sent only after the data is durably stored.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths: {
      "/api/callback": {
        post: {
          operationId: "postToolResult",
          summary: "Deliver a tool result (or an oauth message) for a registered call",
          description:
            'Routes by group_id + id to a registered call awaiting a result or an active subscription. Same content again answers like the first (idempotent); different content for a completed call is 409. An oauth message ({type: "oauth", group_id, id, call_id, auth_url}) instead of a result settles the call as auth_required (the tool needs the user\'s authorization at auth_url); the tool may still send its result later. When TOOLSCOPE_CALLBACK_SECRET is set, requests carry Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>).',
          parameters: ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => ({
            name,
            in: "header",
            required: false,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: { "application/json": { schema: { oneOf: [ref("ToolResultMessage"), ref("OAuthMessage")] } } },
          },
          responses: {
            "200": {
              description: "Stored (or an identical repeat)",
              content: { "application/json": { schema: { oneOf: [ref("AcceptedResult"), ref("AcceptedOAuth")] } } },
            },
            "400": errorResponse("Malformed JSON"),
            "401": errorResponse("Missing, stale or invalid signature"),
            "404": errorResponse("No registered call with this group_id and id (unknown_call)"),
            "409": errorResponse("A different result for a completed call, or a cancelled subscription"),
            "413": errorResponse("Body over TOOLSCOPE_MAX_BODY_BYTES"),
            "415": errorResponse("Content-Type is not application/json"),
            "422": errorResponse("Schema violation (with the field path) or call_id mismatch"),
            "503": errorResponse("Could not be stored; nothing was kept; retry"),
          },
        },
      },
      "/api/events": {
        post: {
          operationId: "postEvents",
          summary: "Record the runtime's trace events: one event, or a batch",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  oneOf: [
                    ref("TraceEvent"),
                    { type: "array", items: ref("TraceEvent"), minItems: 1, maxItems: MAX_BATCH },
                  ],
                },
              },
            },
          },
          responses: {
            "200": {
              description: "An identical event was already recorded",
              content: { "application/json": { schema: ref("EventRecorded") } },
            },
            "201": { description: "Recorded", content: { "application/json": { schema: ref("EventRecorded") } } },
            "207": {
              description: "Batch: one result per item, in order",
              content: { "application/json": { schema: ref("EventBatchResult") } },
            },
            "404": errorResponse("The event names an unknown call"),
            "409": errorResponse("The call is registered with different content, or is not an active subscription"),
            "413": errorResponse("Body too large"),
            "415": errorResponse("Content-Type is not application/json"),
            "422": errorResponse("Schema violation with the field path"),
          },
        },
      },
      "/v1/traces": otlpTracesPath("postOtlpTraces"),
      "/api/otel/v1/traces": otlpTracesPath("postOtlpTracesUnderApi"),
      "/api/import": {
        post: {
          operationId: "importTranscript",
          summary:
            "Import a vendor transcript (Anthropic, OpenAI Chat/Responses, Gemini, MCP, agent stream) or a Toolscope export",
          parameters: queryParameters(importQuerySchema),
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: {} },
              "application/x-ndjson": { schema: { type: "string" } },
              "text/event-stream": { schema: { type: "string" } },
            },
          },
          responses: {
            "200": {
              description: "The same input was imported before; nothing was written",
              content: { "application/json": { schema: ref("ImportResult") } },
            },
            "201": {
              description: "Imported as a new thread",
              content: { "application/json": { schema: ref("ImportResult") } },
            },
            "409": errorResponse("A different thread already has this group id"),
            "413": errorResponse("Body too large (use the CLI: npm run toolscope -- import <file>)"),
            "415": errorResponse("Unsupported content type"),
            "422": errorResponse("Malformed transcript: the message names the item and field"),
          },
        },
      },
      "/api/threads/{group_id}/export": {
        get: {
          operationId: "exportThread",
          summary:
            "Export a thread as lossless Toolscope JSONL (every event, call, result and delivery with raw bodies and hashes)",
          parameters: [{ name: "group_id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": {
              description: "Toolscope JSONL",
              content: { "application/x-ndjson": { schema: { type: "string" } } },
            },
            "404": errorResponse("No such thread"),
          },
        },
      },
      "/api/threads/{group_id}/replay": {
        get: {
          operationId: "replayThread",
          summary: "The message history at step N, as the request body a vendor's API accepts",
          parameters: [
            { name: "group_id", in: "path", required: true, schema: { type: "string" } },
            ...queryParameters(replayQuerySchema),
          ],
          responses: {
            "200": {
              description: "History at step N",
              content: { "application/json": { schema: ref("ReplayResult") } },
            },
            "404": errorResponse("No such thread"),
          },
        },
      },
      "/api/secrets/reveal": {
        post: {
          operationId: "revealSecret",
          summary:
            "One value a page shows masked (#fingerprint), found in a call's, thread's or delivery's stored texts; recorded in the access log",
          requestBody: { required: true, content: { "application/json": { schema: ref("RevealRequest") } } },
          responses: {
            "200": { description: "The value, where it was found, and the access record written" },
            "404": errorResponse("No such masked value in the scopes (masks change on restart: reload the page)"),
            "422": errorResponse("Bad fingerprint or scope"),
          },
        },
      },
      "/api/calls": {
        get: {
          operationId: "exploreCalls",
          summary:
            "Calls across threads: filters, full-text search in arguments and result text, keyset pages (nextCursor)",
          parameters: queryParameters(explorerQuerySchema),
          responses: {
            "200": {
              description: "One page of calls, each with its verdict",
              content: { "application/json": { schema: { type: "object" } } },
            },
            "422": errorResponse("A bad filter or cursor: the message names the parameter"),
          },
        },
      },
      "/api/health": {
        get: {
          operationId: "getHealth",
          summary: "Status, database kind, migration state and row counts",
          responses: {
            "200": { description: "Healthy", content: { "application/json": { schema: ref("Health") } } },
            "503": {
              description: "Degraded (writes refused, migrations pending) or down (database unreachable)",
              content: { "application/json": { schema: ref("Health") } },
            },
          },
        },
      },
      "/api/storage": {
        get: {
          operationId: "getStorage",
          summary:
            "Database size, rows per table, oldest data, retention settings and what the next prune removes (access: read)",
          responses: { "200": { description: "The storage report" } },
        },
      },
      "/api/storage/prune": {
        post: {
          operationId: "pruneStorage",
          summary:
            "Apply retention now: whole threads and refused deliveries of no thread, in small transactions (access: admin)",
          requestBody: { required: false, content: { "application/json": { schema: ref("PruneRequest") } } },
          responses: {
            "200": { description: "What was removed (or would be, with dry_run)" },
            "415": errorResponse("Not JSON"),
            "422": errorResponse("Invalid request"),
          },
        },
      },
      ...forkPaths(ref, errorResponse),
      ...inPathPaths(ref, errorResponse),
      "/api/openapi.json": {
        get: {
          operationId: "getOpenApi",
          summary: "This document",
          responses: { "200": { description: "OpenAPI 3.1" } },
        },
      },
    },
    components: {
      schemas: componentSchemas({
        RevealRequest: revealRequestSchema,
        ToolResultMessage: callbackMessageSchema,
        AcceptedResult: acceptedResultSchema,
        OAuthMessage: oauthMessageSchema,
        AcceptedOAuth: acceptedOAuthSchema,
        TraceEvent: traceEventSchema,
        EventRecorded: eventRecordedSchema,
        EventBatchResult: batchResultSchema,
        Health: healthSchema,
        PruneRequest: pruneRequestSchema,
        Error: errorBodySchema,
        ImportResult: importResultSchema,
        ReplayResult: replayResultSchema,
        ...FORK_SCHEMAS,
        ...IN_PATH_SCHEMAS,
        ExportTraceServiceResponse: exportTraceServiceResponseSchema,
        OtlpStatus: otlpStatusSchema,
      }),
      // Exposed mode (TOOLSCOPE_SECRET set): an API key of the endpoint's scope (docs/security.md). Local mode checks none.
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "tsk_… API key (ingest, read or admin scope); not needed in local mode",
        },
      },
    },
    security: [{ apiKey: [] }, {}],
  };
}
