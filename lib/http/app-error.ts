// The one error type of Toolscope: a code that maps to an HTTP status in exactly one place, and one JSON body shape.
export const ERROR_STATUS = {
  bad_request: 400,
  malformed_json: 400,
  unauthorized: 401,
  not_found: 404,
  unknown_call: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  invalid: 422,
  call_id_mismatch: 422,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorBody = {
  error: { code: ErrorCode; message: string; path?: string; details?: unknown };
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly path?: string;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, extra: { path?: string; details?: unknown } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.path = extra.path;
    this.details = extra.details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.path !== undefined) error.path = this.path;
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

export function errorBody(code: ErrorCode, message: string, extra: { path?: string; details?: unknown } = {}): ErrorBody {
  return new AppError(code, message, extra).toBody();
}

/** Anything thrown, as an AppError; unexpected errors become `internal` without leaking their message. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError("internal", "Internal error; see the server log");
}
