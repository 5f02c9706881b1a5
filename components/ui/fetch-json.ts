// The one client kit for Toolscope's JSON API: every client leaf reads through fetchJson / fetchText and writes
// through postJson / sendJson, and gets one ApiError carrying the server's {"error": {"code", "message", "path"?}}
// (or the auth library's {"code", "message"}) — or the status line when the body is neither (a proxy's page, a crash).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The error a non-2xx answer carries: the server's JSON error when it sent one, else the status line. */
export function apiErrorFrom(status: number, statusText: string, body: unknown): ApiError {
  if (
    typeof body === "object" &&
    body !== null &&
    "error" in body &&
    typeof body.error === "object" &&
    body.error !== null
  ) {
    const error = body.error;
    const code = "code" in error && typeof error.code === "string" ? error.code : "error";
    const message =
      "message" in error && typeof error.message === "string" ? error.message : `${status} ${statusText}`.trim();
    const path = "path" in error && typeof error.path === "string" ? error.path : undefined;
    return new ApiError(status, code, message, path);
  }
  // The auth library (better-auth) answers its own routes with a flat {"code"?, "message"}.
  if (typeof body === "object" && body !== null && "message" in body && typeof body.message === "string") {
    const code = "code" in body && typeof body.code === "string" ? body.code : "http_error";
    return new ApiError(status, code, body.message);
  }
  return new ApiError(status, "http_error", `${status} ${statusText}`.trim());
}

async function failure(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  return apiErrorFrom(response.status, response.statusText, body);
}

/** GET `path` as JSON. The caller names the type it expects: the route and this caller share one DTO type. */
export async function fetchJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { signal, headers: { accept: "application/json" }, cache: "no-store" });
  if (!response.ok) throw await failure(response);
  const body: T = await response.json();
  return body;
}

/** GET a text body exactly as served (UTF-8 decoded by the browser), with its headers. */
export async function fetchText(path: string, signal?: AbortSignal): Promise<{ text: string; headers: Headers }> {
  const response = await fetch(path, { signal, cache: "no-store" });
  if (!response.ok) throw await failure(response);
  return { text: await response.text(), headers: response.headers };
}

/** POST a body (a JSON value, or a File/Blob sent as is with its content type) and read the JSON answer. */
export async function postJson<T>(path: string, body: unknown, options: { contentType?: string } = {}): Promise<T> {
  const raw = body instanceof Blob;
  const response = await fetch(path, {
    method: "POST",
    headers: {
      "content-type": options.contentType ?? (raw ? body.type || "application/octet-stream" : "application/json"),
      accept: "application/json",
    },
    body: raw ? body : JSON.stringify(body),
    cache: "no-store",
  });
  if (!response.ok) throw await failure(response);
  const answer: T = await response.json();
  return answer;
}

/**
 * A JSON write (POST, PUT, PATCH, DELETE) to a same-origin route: the body sent as JSON (none when left out), the
 * JSON answer read back — `undefined` for an empty answer (204).
 */
export async function sendJson<T>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(path, {
    method,
    // JSON is the only body type Toolscope takes for writes; the type goes out even without a body, as it always has.
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  if (!response.ok) throw await failure(response);
  const text = await response.text();
  const answer: T = text === "" ? undefined : JSON.parse(text);
  return answer;
}
