// Sends JSON to a same-origin API route (the only body type Toolscope takes for writes) and throws the one
// error shape's message on failure.
import { ApiError } from "@/components/ui/fetch-json.ts";

export async function sendJson<T>(method: "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = typeof answer === "object" && answer !== null && "error" in answer ? answer.error : null;
    const message =
      typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
        ? error.message
        : typeof answer === "object" && answer !== null && "message" in answer && typeof answer.message === "string"
          ? answer.message
          : `HTTP ${response.status}`;
    throw new ApiError(response.status, "http_error", message);
  }
  return answer as T;
}
