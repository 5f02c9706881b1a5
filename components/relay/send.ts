// Writes of the in-path pages: JSON to a same-origin route, the one error shape's message on failure.
import { sendJson } from "@/components/access/post-json.ts";

export async function send<T>(method: "POST" | "DELETE" | "PATCH", path: string, body?: unknown): Promise<T> {
  if (method !== "PATCH") return sendJson<T>(method, path, body);
  const response = await fetch(path, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body ?? {}),
    cache: "no-store",
  });
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = typeof answer === "object" && answer !== null && "error" in answer ? answer.error : null;
    throw new Error(
      typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
        ? error.message
        : `HTTP ${response.status}`,
    );
  }
  return answer as T;
}
