// The one error type of Toolscope: a code that maps to an HTTP status in exactly one place, and one JSON body shape.
export const ERROR_STATUS = {
  bad_request: 400,
  malformed_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  unknown_call: 404,
  unknown_relay: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  invalid: 422,
  call_id_mismatch: 422,
  rate_limited: 429,
  internal: 500,
  relay_unreachable: 502,
  unavailable: 503,
  relay_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorBody = {
  error: { code: ErrorCode; message: string; path?: string; details?: unknown };
};

/** Seconds a client should wait before retrying a 503 or 429 when nothing more precise is known. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

type ErrorExtra = { path?: string; details?: unknown; retryAfterSeconds?: number; headers?: Record<string, string> };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly path?: string;
  readonly details?: unknown;
  /** Sent as Retry-After; every 503 and 429 carries one (DEFAULT_RETRY_AFTER_SECONDS when unset). */
  readonly retryAfterSeconds?: number;
  /** Extra response headers this error needs (e.g. Allow on a 405). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.path = extra.path;
    this.details = extra.details;
    this.headers = extra.headers ?? {};
    const status = ERROR_STATUS[code];
    this.retryAfterSeconds =
      extra.retryAfterSeconds ?? (status === 503 || status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** Headers the answer to this error must carry (Retry-After, Allow, …). */
  responseHeaders(): Record<string, string> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.retryAfterSeconds !== undefined)
      headers["retry-after"] = String(Math.max(1, Math.ceil(this.retryAfterSeconds)));
    return headers;
  }

  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.path !== undefined) error.path = this.path;
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

export function errorBody(
  code: ErrorCode,
  message: string,
  extra: { path?: string; details?: unknown } = {},
): ErrorBody {
  return new AppError(code, message, extra).toBody();
}

/** Anything thrown, as an AppError; unexpected errors become `internal` without leaking their message. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError("internal", "Internal error; see the server log");
}
