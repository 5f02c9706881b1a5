-- hand-written (no schema change): A thread opened by messages (no vendor) now takes the vendor of its first call that names one
-- (lib/events/repository.ts ensureThread), and threads stored before that get it here, so replay opens in
-- their own encoding.
UPDATE "Thread" SET "vendor" = (
  SELECT c."vendor" FROM "ToolCall" c WHERE c."threadId" = "Thread"."id" AND c."vendor" IS NOT NULL ORDER BY c."id" LIMIT 1
) WHERE "vendor" IS NULL;
