// Sends one model turn: the streaming request to the target, its server-sent events through the API's
// accumulator, the answer — or the provider's error exactly as sent. The key joins the headers here and nowhere
// else; every text that leaves this module has it masked.
import "server-only";
import { createParser } from "eventsource-parser";
import type { JsonRecord } from "../formats/json-fields.ts";
import { stringifyJsonLossless } from "../formats/lossless-json.ts";
import { anthropicAdapter } from "./anthropic.ts";
import { ProviderError, type ApiAdapter, type ProviderRequest } from "./api-adapter.ts";
import { geminiAdapter } from "./gemini.ts";
import { openAIChatAdapter } from "./openai-chat.ts";
import { openAIResponsesAdapter } from "./openai-responses.ts";
import {
  DEFAULT_MODEL_TIMEOUT_MS,
  type LiveOutput,
  type ModelAnswer,
  type ModelApi,
  type ModelTarget,
} from "./schemas.ts";
import { maskKey, maskKeyDeep } from "./targets.ts";

export { ProviderError };

export const API_ADAPTERS: Record<ModelApi, ApiAdapter> = {
  "openai-chat": openAIChatAdapter,
  "openai-responses": openAIResponsesAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
};

/** How much of an error body is kept: provider errors are short; a proxy's HTML page need not be kept whole. */
export const MAX_ERROR_BODY_CHARS = 64 * 1024;

/**
 * The most bytes of one answer's stream read before the turn fails. A real answer is far smaller (128k output
 * tokens are a few MB of events); without a bound, a broken or hostile provider streaming without end filled
 * the server's memory within seconds and had every progress write store all of it.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export type CallModelOptions = {
  target: ModelTarget;
  /** The history as lib/replay renders it for the target's API (messages/input/contents, tools, system). */
  history: JsonRecord;
  apiKey: string | null;
  /** Aborts the turn (a person pressed Stop); the target's timeout applies as well. */
  signal?: AbortSignal;
  /** Called with what has arrived, after an event, at most every `progressEveryMs`. */
  onProgress?: (live: LiveOutput) => void;
  /**
   * The least time between two onProgress calls (default 0: after every event). What has arrived is assembled
   * anew for each call, in time growing with the answer, so a caller that keeps only the latest sets this.
   */
  progressEveryMs?: number;
  /** The most bytes of the stream read (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
};

/** The request as it will be sent, without the key: what Toolscope records and shows. */
export function buildModelRequest(target: ModelTarget, history: JsonRecord): ProviderRequest {
  return API_ADAPTERS[target.api].request(target, history);
}

async function readErrorBody(response: Response): Promise<string> {
  if (response.body === null) return response.statusText;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (text.length < MAX_ERROR_BODY_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.length > MAX_ERROR_BODY_CHARS
    ? `${text.slice(0, MAX_ERROR_BODY_CHARS)}\n… (cut at ${MAX_ERROR_BODY_CHARS} characters)`
    : text || response.statusText;
}

function describeFailure(
  error: unknown,
  url: string,
  timeout: AbortSignal,
  cancel: AbortSignal | undefined,
  timeoutMs: number,
  answering: boolean,
): ProviderError {
  if (cancel?.aborted) return new ProviderError("Stopped before the model finished answering");
  if (timeout.aborted)
    return new ProviderError(`No complete answer from ${url} within ${timeoutMs} ms (the target's timeoutMs)`);
  if (error instanceof ProviderError) return error;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  const message = error instanceof Error ? error.message : String(error);
  // Reached, and answering: the stream broke (a reset, a proxy's idle close), which "could not reach" would misstate.
  if (answering) return new ProviderError(`The answer from ${url} broke off while streaming: ${message}${cause}`);
  return new ProviderError(`Could not reach ${url}: ${message}${cause}`);
}

export async function callModel(options: CallModelOptions): Promise<ModelAnswer> {
  const { target, apiKey } = options;
  const adapter = API_ADAPTERS[target.api];
  const request = adapter.request(target, options.history);
  const timeoutMs = target.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  let answering = false;
  try {
    const response = await fetch(request.url, {
      method: "POST",
      headers: { ...request.headers, ...(apiKey === null ? {} : adapter.authHeaders(apiKey)) },
      // Lossless: numbers of the history a double cannot hold (integers above 2^53) keep their digits.
      body: stringifyJsonLossless(request.body),
      signal,
      redirect: "error",
    });
    answering = true;
    if (!response.ok) throw new ProviderError(await readErrorBody(response), response.status);
    const type = response.headers.get("content-type") ?? "";
    if (!type.includes("text/event-stream")) {
      throw new ProviderError(
        `Expected a stream of server-sent events, got ${type || "no content type"}: ${(await readErrorBody(response)).slice(0, 4000)}`,
        response.status,
      );
    }
    if (response.body === null) throw new ProviderError("The answer had no body", response.status);
    const accumulator = adapter.accumulator();
    let failure: unknown = null;
    const { onProgress, progressEveryMs = 0 } = options;
    let progressAt = -Infinity;
    let trailing: ReturnType<typeof setTimeout> | undefined;
    // At most every progressEveryMs, and what arrived last is reported too (after the interval), even when the
    // provider then pauses.
    const report = () => {
      trailing = undefined;
      if (onProgress === undefined || failure !== null) return;
      progressAt = performance.now();
      try {
        onProgress(accumulator.live());
      } catch (error) {
        failure = error;
      }
    };
    const parser = createParser({
      onEvent(event) {
        if (failure !== null) return;
        try {
          accumulator.accept(event);
        } catch (error) {
          failure = error;
          return;
        }
        if (onProgress === undefined || trailing !== undefined) return;
        const wait = progressAt + progressEveryMs - performance.now();
        if (wait <= 0) report();
        else trailing = setTimeout(report, wait);
      },
    });
    const maxBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    let received = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > maxBytes)
          throw new ProviderError(
            `The answer passed ${maxBytes} bytes without ending; Toolscope stopped reading it (a model's answer is far smaller)`,
          );
        parser.feed(decoder.decode(value, { stream: true }));
        if (failure !== null) throw failure;
      }
      parser.feed(decoder.decode());
      if (failure !== null) throw failure;
    } finally {
      clearTimeout(trailing);
      await reader.cancel().catch(() => undefined);
    }
    // The answer is stored and shown like the errors are: masked, wherever the provider may have echoed the key.
    return maskKeyDeep(accumulator.finish(), apiKey);
  } catch (error) {
    const failed = describeFailure(error, request.url, timeout, options.signal, timeoutMs, answering);
    throw new ProviderError(maskKey(failed.text, apiKey), failed.httpStatus);
  }
}
