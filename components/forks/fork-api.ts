// The fork pages' writes: POST a JSON body to a fork route and get its answer, or its one-shape error as an ApiError.
import { ApiError } from "@/components/ui/fetch-json.ts";

export { ApiError };

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body), cache: "no-store" });
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = typeof answer === "object" && answer !== null && "error" in answer && typeof answer.error === "object" && answer.error !== null ? answer.error : null;
    const message = error !== null && "message" in error && typeof error.message === "string" ? error.message : `HTTP ${response.status}`;
    const code = error !== null && "code" in error && typeof error.code === "string" ? error.code : "http_error";
    throw new ApiError(response.status, code, message);
  }
  return answer as T;
}

export function forkApiPath(groupId: string, rest = ""): string {
  return `/api/threads/${encodeURIComponent(groupId)}/fork${rest}`;
}

export function forkPageHref(groupId: string): string {
  return `/threads/${encodeURIComponent(groupId)}/fork`;
}

export function newForkHref(groupId: string, options: { step?: number; call?: string } = {}): string {
  const params = new URLSearchParams();
  if (options.step !== undefined) params.set("step", String(options.step));
  if (options.call !== undefined) params.set("call", options.call);
  const search = params.toString();
  return `/threads/${encodeURIComponent(groupId)}/forks/new${search ? `?${search}` : ""}`;
}
