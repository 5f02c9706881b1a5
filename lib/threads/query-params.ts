// Owns reading a query string (URLSearchParams or Next's searchParams object) through a zod schema into
// typed options, with the one error shape on failure. Shared by the list/timeline/calls routes and pages.
import type { z } from "zod";
import { AppError } from "../http/app-error.ts";
import { formatIssuePath } from "../ingest/raw-delivery.ts";

export type SearchParamsInput = URLSearchParams | Record<string, string | string[] | undefined>;

/** The first value of each key: repeated keys (`?status=a&status=b`) keep the first, like a form would. */
export function firstValues(input: SearchParamsInput): Record<string, string> {
  const out: Record<string, string> = {};
  if (input instanceof URLSearchParams) {
    for (const [key, value] of input) if (!(key in out)) out[key] = value;
    return out;
  }
  for (const [key, value] of Object.entries(input)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[key] = first;
  }
  return out;
}

/** Parses with `schema`; a bad value is a 422 `invalid` error naming the parameter. Unknown keys are ignored. */
export function parseSearchParams<S extends z.ZodType>(schema: S, input: SearchParamsInput): z.infer<S> {
  const result = schema.safeParse(firstValues(input));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? formatIssuePath(issue.path) : "";
  throw new AppError("invalid", issue ? `${path || "query"}: ${issue.message}` : "Invalid query parameters", { path: path || undefined });
}
