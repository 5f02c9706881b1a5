// Query strings and path parameters through zod schemas, the one way: a bad value is 422 `invalid` naming
// the parameter, on every route and page.
import { z } from "zod";
import { AppError } from "./app-error.ts";
import { formatIssuePath } from "./issue-path.ts";

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
export function parseQuery<S extends z.ZodType>(schema: S, input: SearchParamsInput): z.infer<S> {
  const result = schema.safeParse(firstValues(input));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? formatIssuePath(issue.path) : "";
  throw new AppError("invalid", issue ? `${path || "query"}: ${issue.message}` : "Invalid query parameters", {
    path: path || undefined,
  });
}

/** The largest id an Int column holds on both databases (PostgreSQL's int4). */
export const MAX_ROW_ID = 2_147_483_647;

/** A row id in a path or query: plain decimal digits only (no `1e3`, `0x10`, signs or spaces), 1 … 2^31−1. */
export const rowIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "must be a positive decimal integer")
  .transform(Number)
  .refine((value) => value <= MAX_ROW_ID, `must be at most ${MAX_ROW_ID}`);

/** Drops parameters given empty (`?outcome=`): a form's "any" choice. */
export function nonEmptyValues(input: SearchParamsInput): Record<string, string> {
  return Object.fromEntries(Object.entries(firstValues(input)).filter(([, value]) => value !== ""));
}

/**
 * For pages: bad parameters are dropped and named in `ignored` instead of failing, so a hand-edited URL still
 * shows the page. APIs use parseQuery.
 */
export function parseQueryLenient<S extends z.ZodType>(
  schema: S,
  input: SearchParamsInput,
): { query: z.infer<S>; ignored: string[] } {
  const values = firstValues(input);
  const ignored: string[] = [];
  for (;;) {
    const result = schema.safeParse(values);
    if (result.success) return { query: result.data, ignored };
    const bad = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? "")))].filter(
      (key) => key in values,
    );
    if (bad.length === 0) throw new AppError("invalid", "Invalid query parameters");
    for (const key of bad) {
      delete values[key];
      ignored.push(key);
    }
  }
}
