// The shape every model API adapter has: build the streaming request, say how the key travels, and fold the
// stream's events back into the API's own non-streaming answer. Pure: no I/O, no environment, no keys held.
import type { JsonRecord } from "../formats/json-fields.ts";
import type { LiveOutput, ModelAnswer, ModelApi, ModelTarget } from "./schemas.ts";

/** One server-sent event as the SSE parser hands it over. */
export type StreamEvent = { event?: string; data: string };

export type ProviderRequest = { url: string; headers: Record<string, string>; body: JsonRecord };

export type StreamAccumulator = {
  /** Takes one event; throws ProviderError when the provider reports an error inside the stream. */
  accept(event: StreamEvent): void;
  /** What has arrived so far, for the page. */
  live(): LiveOutput;
  /** The answer once the stream ended; throws ProviderError when it ended before an answer was there. */
  finish(): ModelAnswer;
};

export type ApiAdapter = {
  api: ModelApi;
  /** The streaming request for `history` (a lib/replay request body for this API), key headers not included. */
  request(target: ModelTarget, history: JsonRecord): ProviderRequest;
  /** The headers that carry the key; only the client adds them, right before sending. */
  authHeaders(key: string): Record<string, string>;
  accumulator(): StreamAccumulator;
};

/**
 * A provider's refusal or failure, with its text exactly as the provider sent it (an HTTP error body, an error
 * event of the stream) or, for failures that never reached the provider, what happened.
 */
export class ProviderError extends Error {
  readonly httpStatus: number | null;
  readonly text: string;
  constructor(text: string, httpStatus: number | null = null) {
    super(httpStatus === null ? text : `HTTP ${httpStatus}: ${text}`);
    this.name = "ProviderError";
    this.httpStatus = httpStatus;
    this.text = text;
  }
}

/** `baseUrl` + `path`, with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** A stream event's JSON data; anything else in a stream is a provider fault, reported with the data verbatim. */
export function parseEventData(event: StreamEvent): JsonRecord {
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    throw new ProviderError(`The stream carried an event that is not JSON: ${event.data.slice(0, 2000)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ProviderError(`The stream carried an event that is not a JSON object: ${event.data.slice(0, 2000)}`);
  }
  return { ...value };
}
