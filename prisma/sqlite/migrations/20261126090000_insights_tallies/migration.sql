-- hand-written (insights): the aggregates /insights shows, kept as RowTally tallies by triggers so the page reads a
-- few dozen rows instead of scanning every result (issue 13: 0.9–1.7 s at 1M results). lib/insights/repository.ts
-- reads them; the keys are:
--   results.envelope:none             results with no envelope
--   results.confidence.tenth:<0..9>   results with confidence in [k/10, (k+1)/10), 1.0 in tenth 9
--   results.confidence:out            results with a confidence outside 0..1
--   calls.error:<json [tool, errorType, errorSource]>   errored calls by their newest result (the explorer's columns)
--   calls.timed_out.tool:<tool>       timed-out calls per tool
-- Results are also updated in place (OTLP span updates, fork rewrites), so every result tally, the older
-- confidence<0.5 and nextAction ones included, follows updates too.
CREATE TRIGGER "ToolResult_insights_ai" AFTER INSERT ON "ToolResult" BEGIN
  INSERT INTO "RowTally"("key", "count") SELECT k, 1 FROM (
    SELECT CASE WHEN NEW."envelopeKind" IS NULL THEN 'results.envelope:none' END AS k
    UNION ALL SELECT CASE WHEN NEW."confidence" IS NULL THEN NULL WHEN NEW."confidence" < 0 OR NEW."confidence" > 1 THEN 'results.confidence:out'
      WHEN NEW."confidence" < 0.1 THEN 'results.confidence.tenth:0' WHEN NEW."confidence" < 0.2 THEN 'results.confidence.tenth:1'
      WHEN NEW."confidence" < 0.3 THEN 'results.confidence.tenth:2' WHEN NEW."confidence" < 0.4 THEN 'results.confidence.tenth:3'
      WHEN NEW."confidence" < 0.5 THEN 'results.confidence.tenth:4' WHEN NEW."confidence" < 0.6 THEN 'results.confidence.tenth:5'
      WHEN NEW."confidence" < 0.7 THEN 'results.confidence.tenth:6' WHEN NEW."confidence" < 0.8 THEN 'results.confidence.tenth:7'
      WHEN NEW."confidence" < 0.9 THEN 'results.confidence.tenth:8' ELSE 'results.confidence.tenth:9' END
  ) WHERE k IS NOT NULL ON CONFLICT("key") DO UPDATE SET "count" = "count" + excluded."count";
END;
CREATE TRIGGER "ToolResult_insights_ad" AFTER DELETE ON "ToolResult" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" IN (
    CASE WHEN OLD."envelopeKind" IS NULL THEN 'results.envelope:none' END,
    CASE WHEN OLD."confidence" IS NULL THEN NULL WHEN OLD."confidence" < 0 OR OLD."confidence" > 1 THEN 'results.confidence:out'
      WHEN OLD."confidence" < 0.1 THEN 'results.confidence.tenth:0' WHEN OLD."confidence" < 0.2 THEN 'results.confidence.tenth:1'
      WHEN OLD."confidence" < 0.3 THEN 'results.confidence.tenth:2' WHEN OLD."confidence" < 0.4 THEN 'results.confidence.tenth:3'
      WHEN OLD."confidence" < 0.5 THEN 'results.confidence.tenth:4' WHEN OLD."confidence" < 0.6 THEN 'results.confidence.tenth:5'
      WHEN OLD."confidence" < 0.7 THEN 'results.confidence.tenth:6' WHEN OLD."confidence" < 0.8 THEN 'results.confidence.tenth:7'
      WHEN OLD."confidence" < 0.9 THEN 'results.confidence.tenth:8' ELSE 'results.confidence.tenth:9' END);
END;
CREATE TRIGGER "ToolResult_insights_au" AFTER UPDATE OF "envelopeKind", "confidence", "nextAction" ON "ToolResult" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" IN (
    CASE WHEN OLD."envelopeKind" IS NULL THEN 'results.envelope:none' END,
    CASE WHEN OLD."confidence" < 0.5 THEN 'results.confidence<0.5' END,
    'results.nextAction:' || OLD."nextAction",
    CASE WHEN OLD."confidence" IS NULL THEN NULL WHEN OLD."confidence" < 0 OR OLD."confidence" > 1 THEN 'results.confidence:out'
      WHEN OLD."confidence" < 0.1 THEN 'results.confidence.tenth:0' WHEN OLD."confidence" < 0.2 THEN 'results.confidence.tenth:1'
      WHEN OLD."confidence" < 0.3 THEN 'results.confidence.tenth:2' WHEN OLD."confidence" < 0.4 THEN 'results.confidence.tenth:3'
      WHEN OLD."confidence" < 0.5 THEN 'results.confidence.tenth:4' WHEN OLD."confidence" < 0.6 THEN 'results.confidence.tenth:5'
      WHEN OLD."confidence" < 0.7 THEN 'results.confidence.tenth:6' WHEN OLD."confidence" < 0.8 THEN 'results.confidence.tenth:7'
      WHEN OLD."confidence" < 0.9 THEN 'results.confidence.tenth:8' ELSE 'results.confidence.tenth:9' END);
  INSERT INTO "RowTally"("key", "count") SELECT k, 1 FROM (
    SELECT CASE WHEN NEW."envelopeKind" IS NULL THEN 'results.envelope:none' END AS k
    UNION ALL SELECT CASE WHEN NEW."confidence" < 0.5 THEN 'results.confidence<0.5' END
    UNION ALL SELECT 'results.nextAction:' || NEW."nextAction"
    UNION ALL SELECT CASE WHEN NEW."confidence" IS NULL THEN NULL WHEN NEW."confidence" < 0 OR NEW."confidence" > 1 THEN 'results.confidence:out'
      WHEN NEW."confidence" < 0.1 THEN 'results.confidence.tenth:0' WHEN NEW."confidence" < 0.2 THEN 'results.confidence.tenth:1'
      WHEN NEW."confidence" < 0.3 THEN 'results.confidence.tenth:2' WHEN NEW."confidence" < 0.4 THEN 'results.confidence.tenth:3'
      WHEN NEW."confidence" < 0.5 THEN 'results.confidence.tenth:4' WHEN NEW."confidence" < 0.6 THEN 'results.confidence.tenth:5'
      WHEN NEW."confidence" < 0.7 THEN 'results.confidence.tenth:6' WHEN NEW."confidence" < 0.8 THEN 'results.confidence.tenth:7'
      WHEN NEW."confidence" < 0.9 THEN 'results.confidence.tenth:8' ELSE 'results.confidence.tenth:9' END
  ) WHERE k IS NOT NULL ON CONFLICT("key") DO UPDATE SET "count" = "count" + excluded."count";
END;

-- Calls: the error key follows the explorer columns the ToolResult trigger writes (so each Insights bar counts
-- exactly the calls its /calls link lists); the timed-out key follows status.
CREATE TRIGGER "ToolCall_insights_ai" AFTER INSERT ON "ToolCall" BEGIN
  INSERT INTO "RowTally"("key", "count") SELECT k, 1 FROM (
    SELECT CASE WHEN NEW."resultIsError" THEN 'calls.error:' || json_array(NEW."toolName", NEW."resultErrorType", NEW."resultErrorSource") END AS k
    UNION ALL SELECT CASE WHEN NEW."status" = 'timed_out' THEN 'calls.timed_out.tool:' || NEW."toolName" END
  ) WHERE k IS NOT NULL ON CONFLICT("key") DO UPDATE SET "count" = "count" + excluded."count";
END;
CREATE TRIGGER "ToolCall_insights_ad" AFTER DELETE ON "ToolCall" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" IN (
    CASE WHEN OLD."resultIsError" THEN 'calls.error:' || json_array(OLD."toolName", OLD."resultErrorType", OLD."resultErrorSource") END,
    CASE WHEN OLD."status" = 'timed_out' THEN 'calls.timed_out.tool:' || OLD."toolName" END);
END;
CREATE TRIGGER "ToolCall_insights_au" AFTER UPDATE OF "toolName", "status", "resultIsError", "resultErrorType", "resultErrorSource" ON "ToolCall" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" IN (
    CASE WHEN OLD."resultIsError" THEN 'calls.error:' || json_array(OLD."toolName", OLD."resultErrorType", OLD."resultErrorSource") END,
    CASE WHEN OLD."status" = 'timed_out' THEN 'calls.timed_out.tool:' || OLD."toolName" END);
  INSERT INTO "RowTally"("key", "count") SELECT k, 1 FROM (
    SELECT CASE WHEN NEW."resultIsError" THEN 'calls.error:' || json_array(NEW."toolName", NEW."resultErrorType", NEW."resultErrorSource") END AS k
    UNION ALL SELECT CASE WHEN NEW."status" = 'timed_out' THEN 'calls.timed_out.tool:' || NEW."toolName" END
  ) WHERE k IS NOT NULL ON CONFLICT("key") DO UPDATE SET "count" = "count" + excluded."count";
END;

-- Backfill from the rows already stored.
INSERT INTO "RowTally"("key", "count") SELECT 'results.envelope:none', COUNT(*) FROM "ToolResult" WHERE "envelopeKind" IS NULL;
INSERT INTO "RowTally"("key", "count") SELECT k, COUNT(*) FROM (
  SELECT CASE WHEN "confidence" < 0 OR "confidence" > 1 THEN 'results.confidence:out'
    WHEN "confidence" < 0.1 THEN 'results.confidence.tenth:0' WHEN "confidence" < 0.2 THEN 'results.confidence.tenth:1'
    WHEN "confidence" < 0.3 THEN 'results.confidence.tenth:2' WHEN "confidence" < 0.4 THEN 'results.confidence.tenth:3'
    WHEN "confidence" < 0.5 THEN 'results.confidence.tenth:4' WHEN "confidence" < 0.6 THEN 'results.confidence.tenth:5'
    WHEN "confidence" < 0.7 THEN 'results.confidence.tenth:6' WHEN "confidence" < 0.8 THEN 'results.confidence.tenth:7'
    WHEN "confidence" < 0.9 THEN 'results.confidence.tenth:8' ELSE 'results.confidence.tenth:9' END AS k
  FROM "ToolResult" WHERE "confidence" IS NOT NULL
) WHERE true GROUP BY k;
INSERT INTO "RowTally"("key", "count") SELECT 'calls.error:' || json_array("toolName", "resultErrorType", "resultErrorSource"), COUNT(*) FROM "ToolCall" WHERE "resultIsError" GROUP BY "toolName", "resultErrorType", "resultErrorSource";
INSERT INTO "RowTally"("key", "count") SELECT 'calls.timed_out.tool:' || "toolName", COUNT(*) FROM "ToolCall" WHERE "status" = 'timed_out' GROUP BY "toolName";
