-- hand-written (insights): the aggregates /insights shows, kept as RowTally tallies by triggers so the page reads a
-- few dozen rows instead of scanning every result (issue 13: 0.9–1.7 s at 1M results). lib/insights/repository.ts
-- reads them. The keys:
--   results.envelope:none             results with no envelope
--   results.confidence.tenth:<0..9>   results with confidence in [k/10, (k+1)/10), 1.0 in tenth 9
--   results.confidence:out            results with a confidence outside 0..1
--   calls.error:<json [tool, errorType, errorSource]>   errored calls by their newest result (the explorer's columns)
--   calls.timed_out.tool:<tool>       timed-out calls per tool
-- Results are also updated in place (OTLP span updates, fork rewrites), so every result tally, the older
-- confidence<0.5 and nextAction ones included, follows updates too. Statement-level triggers over transition
-- tables, as in explorer_calls (one upsert per key per statement).
-- NO SEMICOLONS in comments or bodies here: Prisma's pg adapter runs a migration script split at every semicolon,
-- so function bodies are strings whose statement ends are written \073.
CREATE FUNCTION "toolscope_insights_result_keys"(kind TEXT, confidence DOUBLE PRECISION) RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS E'
  SELECT ARRAY[
    CASE WHEN kind IS NULL THEN ''results.envelope:none'' END,
    CASE WHEN confidence IS NULL THEN NULL WHEN confidence < 0 OR confidence > 1 THEN ''results.confidence:out''
      WHEN confidence < 0.1 THEN ''results.confidence.tenth:0'' WHEN confidence < 0.2 THEN ''results.confidence.tenth:1''
      WHEN confidence < 0.3 THEN ''results.confidence.tenth:2'' WHEN confidence < 0.4 THEN ''results.confidence.tenth:3''
      WHEN confidence < 0.5 THEN ''results.confidence.tenth:4'' WHEN confidence < 0.6 THEN ''results.confidence.tenth:5''
      WHEN confidence < 0.7 THEN ''results.confidence.tenth:6'' WHEN confidence < 0.8 THEN ''results.confidence.tenth:7''
      WHEN confidence < 0.9 THEN ''results.confidence.tenth:8'' ELSE ''results.confidence.tenth:9'' END]
';
CREATE FUNCTION "toolscope_insights_call_keys"(tool TEXT, status TEXT, is_error BOOLEAN, error_type TEXT, error_source TEXT) RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS E'
  SELECT ARRAY[
    CASE WHEN is_error THEN ''calls.error:'' || json_build_array(tool, error_type, error_source)::text END,
    CASE WHEN status = ''timed_out'' THEN ''calls.timed_out.tool:'' || tool END]
';
CREATE FUNCTION "toolscope_tally_insights_result"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT k, COUNT(*) FROM new_rows, unnest("toolscope_insights_result_keys"("envelopeKind", "confidence")) AS k WHERE k IS NOT NULL GROUP BY k ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT k, -COUNT(*) FROM old_rows, unnest("toolscope_insights_result_keys"("envelopeKind", "confidence")) AS k WHERE k IS NOT NULL GROUP BY k ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  ELSE
    INSERT INTO "RowTally"("key", "count") SELECT k, SUM(d) FROM (
      SELECT k, -1 AS d FROM old_rows, unnest("toolscope_insights_result_keys"("envelopeKind", "confidence") || ARRAY[CASE WHEN "confidence" < 0.5 THEN ''results.confidence<0.5'' END, ''results.nextAction:'' || "nextAction"]) AS k
      UNION ALL
      SELECT k, 1 FROM new_rows, unnest("toolscope_insights_result_keys"("envelopeKind", "confidence") || ARRAY[CASE WHEN "confidence" < 0.5 THEN ''results.confidence<0.5'' END, ''results.nextAction:'' || "nextAction"]) AS k
    ) c WHERE k IS NOT NULL GROUP BY k HAVING SUM(d) <> 0 ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  RETURN NULL\073
END\073
';
CREATE FUNCTION "toolscope_tally_insights_call"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT k, COUNT(*) FROM new_rows, unnest("toolscope_insights_call_keys"("toolName", "status", "resultIsError", "resultErrorType", "resultErrorSource")) AS k WHERE k IS NOT NULL GROUP BY k ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "RowTally"("key", "count") SELECT k, -COUNT(*) FROM old_rows, unnest("toolscope_insights_call_keys"("toolName", "status", "resultIsError", "resultErrorType", "resultErrorSource")) AS k WHERE k IS NOT NULL GROUP BY k ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  ELSE
    INSERT INTO "RowTally"("key", "count") SELECT k, SUM(d) FROM (
      SELECT k, -1 AS d FROM old_rows, unnest("toolscope_insights_call_keys"("toolName", "status", "resultIsError", "resultErrorType", "resultErrorSource")) AS k
      UNION ALL
      SELECT k, 1 FROM new_rows, unnest("toolscope_insights_call_keys"("toolName", "status", "resultIsError", "resultErrorType", "resultErrorSource")) AS k
    ) c WHERE k IS NOT NULL GROUP BY k HAVING SUM(d) <> 0 ON CONFLICT ("key") DO UPDATE SET "count" = "RowTally"."count" + EXCLUDED."count"\073
  END IF\073
  RETURN NULL\073
END\073
';
CREATE TRIGGER "ToolResult_insights_insert" AFTER INSERT ON "ToolResult" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_insights_result"();
CREATE TRIGGER "ToolResult_insights_delete" AFTER DELETE ON "ToolResult" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_insights_result"();
CREATE TRIGGER "ToolResult_insights_update" AFTER UPDATE ON "ToolResult" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_insights_result"();
CREATE TRIGGER "ToolCall_insights_insert" AFTER INSERT ON "ToolCall" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_insights_call"();
CREATE TRIGGER "ToolCall_insights_delete" AFTER DELETE ON "ToolCall" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_insights_call"();
CREATE TRIGGER "ToolCall_insights_update" AFTER UPDATE ON "ToolCall" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_tally_insights_call"();

-- Backfill from the rows already stored.
INSERT INTO "RowTally"("key", "count") SELECT k, COUNT(*) FROM "ToolResult", unnest("toolscope_insights_result_keys"("envelopeKind", "confidence")) AS k WHERE k IS NOT NULL GROUP BY k;
INSERT INTO "RowTally"("key", "count") SELECT k, COUNT(*) FROM "ToolCall", unnest("toolscope_insights_call_keys"("toolName", "status", "resultIsError", "resultErrorType", "resultErrorSource")) AS k WHERE k IS NOT NULL GROUP BY k;
