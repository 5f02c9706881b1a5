// Request shape of POST /api/storage/prune, as zod: one source for validation and the OpenAPI document. Client-safe.
import { z } from "zod";

export const pruneRequestSchema = z
  .object({
    dry_run: z.boolean().optional().describe("true: only report what would be removed"),
    days: z
      .number()
      .positive()
      .nullable()
      .optional()
      .describe("Remove threads inactive this many days (default TOOLSCOPE_RETENTION_DAYS; null: no age limit)"),
    max_bytes: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .describe("Remove the oldest threads until the data fits (default TOOLSCOPE_RETENTION_MAX_BYTES)"),
  })
  .strict()
  .meta({ id: "PruneRequest" });
