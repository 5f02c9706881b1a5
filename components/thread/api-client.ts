// Owns how the client leaves read Toolscope's JSON API: one fetch helper that turns the error shape
// ({"error": {"code", "message"}}) into a thrown Error with the server's message.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function failure(response: Response): Promise<ApiError> {
  try {
    const body: unknown = await response.json();
    if (typeof body === "object" && body !== null && "error" in body && typeof body.error === "object" && body.error !== null) {
      const error = body.error;
      const code = "code" in error && typeof error.code === "string" ? error.code : "error";
      const message = "message" in error && typeof error.message === "string" ? error.message : response.statusText;
      return new ApiError(response.status, code, message);
    }
  } catch {
    // Not our JSON error shape (a proxy, a crash page): fall back to the status line.
  }
  return new ApiError(response.status, "error", `${response.status} ${response.statusText}`);
}

/** GET a JSON document; the caller names the type it expects from that route. */
export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, headers: { accept: "application/json" }, cache: "no-store" });
  if (!response.ok) throw await failure(response);
  const body: T = await response.json();
  return body;
}

/** GET a text body exactly as served (UTF-8 decoded by the browser). */
export async function fetchText(url: string, signal?: AbortSignal): Promise<{ text: string; headers: Headers }> {
  const response = await fetch(url, { signal, cache: "no-store" });
  if (!response.ok) throw await failure(response);
  return { text: await response.text(), headers: response.headers };
}

export function threadPath(groupId: string): string {
  return `/threads/${encodeURIComponent(groupId)}`;
}
