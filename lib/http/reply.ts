// What an endpoint answers, whichever server writes it: a status, headers and one kind of body. The adapters
// (next-adapter.ts, node-adapter.ts) turn it into a Response or write it on a Node response.
import { AppError, toAppError } from "./app-error.ts";
import { RequestAborted } from "./read-body.ts";

export type ReplyBody =
  | { kind: "json"; value: unknown }
  | { kind: "bytes"; value: Uint8Array }
  | { kind: "stream"; value: AsyncIterable<string | Uint8Array> }
  | { kind: "empty" };

export type Reply = {
  status: number;
  headers: Record<string, string>;
  body: ReplyBody;
  /** Close the connection after answering (an oversized upload whose rest was never read). */
  closeConnection?: boolean;
};

const NO_STORE = { "cache-control": "no-store" };

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { ...NO_STORE, ...headers }, body: { kind: "json", value } };
}

export function bytesReply(value: Uint8Array, headers: Record<string, string>, status = 200): Reply {
  return { status, headers: { ...NO_STORE, ...headers }, body: { kind: "bytes", value } };
}

export function streamReply(
  value: AsyncIterable<string | Uint8Array>,
  headers: Record<string, string>,
  status = 200,
): Reply {
  return { status, headers: { ...NO_STORE, ...headers }, body: { kind: "stream", value } };
}

/** The one JSON error answer; unexpected errors are logged once (one line for aborted uploads) and answer 500. */
export function errorReply(error: unknown, context = "request"): Reply {
  if (error instanceof RequestAborted) {
    console.warn(`[toolscope] ${context}: ${error.message}`);
  } else if (!(error instanceof AppError)) {
    console.error(`[toolscope] ${context} failed`, error);
  }
  const appError = toAppError(error);
  return jsonReply(appError.status, appError.toBody(), appError.responseHeaders());
}

/** Every 503 and 429 tells the client when to come back. */
export function withRetryAfter(reply: Reply): Reply {
  if ((reply.status === 503 || reply.status === 429) && !("retry-after" in reply.headers)) {
    return { ...reply, headers: { ...reply.headers, "retry-after": "1" } };
  }
  return reply;
}
