// A JSON body through a zod schema: 422 naming the field, like every other body Toolscope reads.
import "server-only";
import type { z } from "zod";
import { AppError } from "../http/app-error.ts";
import { formatIssuePath } from "../http/issue-path.ts";

export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? formatIssuePath(issue.path) : "";
  throw new AppError("invalid", issue ? `${path || "body"}: ${issue.message}` : "Invalid body", {
    path: path || undefined,
  });
}
