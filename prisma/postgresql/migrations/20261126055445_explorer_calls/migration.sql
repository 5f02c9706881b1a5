-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN     "latencyMs" DOUBLE PRECISION,
ADD COLUMN     "resultConfidence" DOUBLE PRECISION,
ADD COLUMN     "resultEnvelopeKind" TEXT,
ADD COLUMN     "resultErrorSource" TEXT,
ADD COLUMN     "resultErrorType" TEXT,
ADD COLUMN     "resultIsError" BOOLEAN,
ADD COLUMN     "resultLate" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "resultNextAction" TEXT,
ADD COLUMN     "resultSuccess" BOOLEAN;

-- CreateTable
CREATE TABLE "RowTally" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RowTally_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "ToolCall_requestedAt_idx" ON "ToolCall"("requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_toolName_requestedAt_idx" ON "ToolCall"("toolName", "requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_vendor_requestedAt_idx" ON "ToolCall"("vendor", "requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_resultErrorType_requestedAt_idx" ON "ToolCall"("resultErrorType", "requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_resultNextAction_requestedAt_idx" ON "ToolCall"("resultNextAction", "requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_resultConfidence_idx" ON "ToolCall"("resultConfidence");

-- CreateIndex
CREATE INDEX "ToolCall_latencyMs_idx" ON "ToolCall"("latencyMs");

-- CreateIndex
CREATE INDEX "ToolCall_resultEnvelopeKind_requestedAt_idx" ON "ToolCall"("resultEnvelopeKind", "requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_resultLate_requestedAt_idx" ON "ToolCall"("resultLate", "requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_timedOutAt_idx" ON "ToolCall"("timedOutAt");

-- CreateIndex
CREATE INDEX "ToolCall_resultIsError_toolName_resultErrorType_resultError_idx" ON "ToolCall"("resultIsError", "toolName", "resultErrorType", "resultErrorSource");

-- CreateIndex
CREATE INDEX "ToolResult_envelopeKind_idx" ON "ToolResult"("envelopeKind");

-- hand-written (explorer):
-- The explorer's per-call columns, kept by a trigger so every writer of ToolResult keeps them (lib/explorer/README.md):
-- the newest result's verdict fields, any result late, and the first result's latency (meta.durationMs when the
-- tool reported a usable one, else first result minus request, and a negative wall-clock difference is no measurement).
-- NO SEMICOLONS in comments or bodies here: Prisma's pg adapter runs a migration script split at every semicolon,
-- so the function body is an E'' string whose statement ends are written \073.
CREATE FUNCTION "toolscope_explorer_result"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "ToolCall" SET
    "resultEnvelopeKind" = NEW."envelopeKind", "resultSuccess" = NEW."success", "resultIsError" = NEW."isError",
    "resultErrorSource" = NEW."errorSource", "resultErrorType" = NEW."errorType", "resultConfidence" = NEW."confidence",
    "resultNextAction" = NEW."nextAction", "resultLate" = ("resultLate" OR NEW."late"),
    "latencyMs" = CASE WHEN NEW."ordinal" = 0 THEN
      CASE WHEN NEW."metaDurationMs" >= 0 THEN NEW."metaDurationMs"
           WHEN NEW."receivedAt" >= "requestedAt" THEN round(EXTRACT(EPOCH FROM (NEW."receivedAt" - "requestedAt")) * 1000)
           ELSE NULL END
      ELSE "latencyMs" END
  WHERE "id" = NEW."toolCallId"\073
  RETURN NULL\073
END\073
';
CREATE TRIGGER "ToolResult_explorer_ai" AFTER INSERT ON "ToolResult" FOR EACH ROW EXECUTE FUNCTION "toolscope_explorer_result"();

-- Full-text search over arguments and result text: GIN indexes on the 'simple' configuration (no stemming, as
-- SQLite's unicode61) over the first 100,000 characters (a tsvector cannot hold more than 1 MB). lib/explorer
-- queries these exact expressions, so the indexes are used.
CREATE INDEX "ToolCall_arguments_search_idx" ON "ToolCall" USING GIN (to_tsvector('simple'::regconfig, left(COALESCE("argumentsText", ''), 100000)));
CREATE INDEX "ToolResult_text_search_idx" ON "ToolResult" USING GIN (to_tsvector('simple'::regconfig, left("text", 100000)));

-- Backfill: what the trigger would have written for the rows already stored.
UPDATE "ToolCall" c SET
  "resultEnvelopeKind" = r."envelopeKind", "resultSuccess" = r."success", "resultIsError" = r."isError",
  "resultErrorSource" = r."errorSource", "resultErrorType" = r."errorType", "resultConfidence" = r."confidence",
  "resultNextAction" = r."nextAction"
FROM "ToolResult" r WHERE r."toolCallId" = c."id" AND r."ordinal" = c."resultCount" - 1;
UPDATE "ToolCall" c SET "resultLate" = TRUE WHERE EXISTS (SELECT 1 FROM "ToolResult" r WHERE r."toolCallId" = c."id" AND r."late");
UPDATE "ToolCall" c SET "latencyMs" =
  CASE WHEN r."metaDurationMs" >= 0 THEN r."metaDurationMs"
       WHEN r."receivedAt" >= c."requestedAt" THEN round(EXTRACT(EPOCH FROM (r."receivedAt" - c."requestedAt")) * 1000)
       ELSE NULL END
FROM "ToolResult" r WHERE r."toolCallId" = c."id" AND r."ordinal" = 0;

-- Row tallies for the overview (RowTally), kept by STATEMENT-level triggers over transition tables: one upsert per
-- key per statement. A row-level trigger would update the same tally row once per inserted row, and within one
-- transaction PostgreSQL then walks an ever longer chain of row versions (a 50,000-row insert took minutes).
-- An UPDATE trigger with transition tables cannot name columns, so the ToolCall and Delivery ones compare old and
-- new rows themselves. (Function bodies are strings with \073 for their statement ends: see the note above.)
CREATE FUNCTION "toolscope_tally_thread"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''threads'', COUNT(*) FROM new_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  IF TG_OP = ''DELETE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''threads'', -COUNT(*) FROM old_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  RETURN NULL\073
END\073
';
CREATE FUNCTION "toolscope_tally_event"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''events'', COUNT(*) FROM new_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  IF TG_OP = ''DELETE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''events'', -COUNT(*) FROM old_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  RETURN NULL\073
END\073
';
CREATE FUNCTION "toolscope_tally_call"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''calls'', COUNT(*) FROM new_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''calls.status:'' || "status", COUNT(*) FROM new_rows GROUP BY "status" ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  IF TG_OP = ''DELETE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''calls'', -COUNT(*) FROM old_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''calls.status:'' || "status", -COUNT(*) FROM old_rows GROUP BY "status" ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  IF TG_OP = ''UPDATE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT k, SUM(d) FROM (SELECT ''calls.status:'' || o."status" AS k, -1 AS d FROM old_rows o JOIN new_rows n ON n."id" = o."id" WHERE n."status" IS DISTINCT FROM o."status" UNION ALL SELECT ''calls.status:'' || n."status", 1 FROM old_rows o JOIN new_rows n ON n."id" = o."id" WHERE n."status" IS DISTINCT FROM o."status") c GROUP BY k ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  RETURN NULL\073
END\073
';
CREATE FUNCTION "toolscope_tally_result"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''results'', COUNT(*) FROM new_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''results.confidence<0.5'', COUNT(*) FROM new_rows WHERE "confidence" < 0.5 HAVING COUNT(*) > 0 ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''results.nextAction:'' || "nextAction", COUNT(*) FROM new_rows WHERE "nextAction" IS NOT NULL GROUP BY "nextAction" ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  IF TG_OP = ''DELETE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''results'', -COUNT(*) FROM old_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''results.confidence<0.5'', -COUNT(*) FROM old_rows WHERE "confidence" < 0.5 HAVING COUNT(*) > 0 ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''results.nextAction:'' || "nextAction", -COUNT(*) FROM old_rows WHERE "nextAction" IS NOT NULL GROUP BY "nextAction" ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  RETURN NULL\073
END\073
';
CREATE FUNCTION "toolscope_tally_delivery"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''deliveries'', COUNT(*) FROM new_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''deliveries.outcome:'' || "outcome", COUNT(*) FROM new_rows GROUP BY "outcome" ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  IF TG_OP = ''DELETE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT ''deliveries'', -COUNT(*) FROM old_rows ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
    INSERT INTO "RowTally"("key", "count") SELECT ''deliveries.outcome:'' || "outcome", -COUNT(*) FROM old_rows GROUP BY "outcome" ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  IF TG_OP = ''UPDATE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT k, SUM(d) FROM (SELECT ''deliveries.outcome:'' || o."outcome" AS k, -1 AS d FROM old_rows o JOIN new_rows n ON n."id" = o."id" WHERE n."outcome" IS DISTINCT FROM o."outcome" UNION ALL SELECT ''deliveries.outcome:'' || n."outcome", 1 FROM old_rows o JOIN new_rows n ON n."id" = o."id" WHERE n."outcome" IS DISTINCT FROM o."outcome") c GROUP BY k ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  RETURN NULL\073
END\073
';
CREATE TRIGGER "Thread_tally_insert" AFTER INSERT ON "Thread" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_thread"();
CREATE TRIGGER "Thread_tally_delete" AFTER DELETE ON "Thread" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_thread"();
CREATE TRIGGER "Event_tally_insert" AFTER INSERT ON "Event" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_event"();
CREATE TRIGGER "Event_tally_delete" AFTER DELETE ON "Event" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_event"();
CREATE TRIGGER "ToolCall_tally_insert" AFTER INSERT ON "ToolCall" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_call"();
CREATE TRIGGER "ToolCall_tally_delete" AFTER DELETE ON "ToolCall" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_call"();
CREATE TRIGGER "ToolCall_tally_update" AFTER UPDATE ON "ToolCall" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_call"();
CREATE TRIGGER "ToolResult_tally_insert" AFTER INSERT ON "ToolResult" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_result"();
CREATE TRIGGER "ToolResult_tally_delete" AFTER DELETE ON "ToolResult" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_result"();
CREATE TRIGGER "Delivery_tally_insert" AFTER INSERT ON "Delivery" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_delivery"();
CREATE TRIGGER "Delivery_tally_delete" AFTER DELETE ON "Delivery" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_delivery"();
CREATE TRIGGER "Delivery_tally_update" AFTER UPDATE ON "Delivery" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_delivery"();
INSERT INTO "RowTally"("key", "count") SELECT 'threads', COUNT(*) FROM "Thread";
INSERT INTO "RowTally"("key", "count") SELECT 'events', COUNT(*) FROM "Event";
INSERT INTO "RowTally"("key", "count") SELECT 'calls', COUNT(*) FROM "ToolCall";
INSERT INTO "RowTally"("key", "count") SELECT 'calls.status:' || "status", COUNT(*) FROM "ToolCall" GROUP BY "status";
INSERT INTO "RowTally"("key", "count") SELECT 'results', COUNT(*) FROM "ToolResult";
INSERT INTO "RowTally"("key", "count") SELECT 'results.confidence<0.5', COUNT(*) FROM "ToolResult" WHERE "confidence" < 0.5;
INSERT INTO "RowTally"("key", "count") SELECT 'results.nextAction:' || "nextAction", COUNT(*) FROM "ToolResult" WHERE "nextAction" IS NOT NULL GROUP BY "nextAction";
INSERT INTO "RowTally"("key", "count") SELECT 'deliveries', COUNT(*) FROM "Delivery";
INSERT INTO "RowTally"("key", "count") SELECT 'deliveries.outcome:' || "outcome", COUNT(*) FROM "Delivery" GROUP BY "outcome";
