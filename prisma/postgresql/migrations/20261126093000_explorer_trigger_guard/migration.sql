-- hand-written (explorer): the per-call explorer columns are kept by a STATEMENT-level trigger over the inserted
-- rows (one UPDATE of "ToolCall" per INSERT statement) instead of a row-level one. The row trigger ran one UPDATE
-- per result, and each of those fired the RowTally statement trigger again: at ingest that was about two thirds
-- of the time of inserting a batch of results (EXPLAIN ANALYZE, 32 rows: 10-14 ms of 15-23 ms).
-- Same columns as before (20261126055445_explorer_calls): the newest inserted result's verdict fields, any late
-- result marks the call late, and the first result (ordinal 0) sets the latency.
-- And calls that already hold those values are left alone: a writer that inserts a call with its result (OTLP
-- ingest, lib/results/call-columns.ts) sets them on the call row, and a second write of the call would cost a
-- new row version with an entry in each of its ~20 indexes (2,000 results: 130-190 ms of a 165-280 ms insert).
-- NO SEMICOLONS in comments or bodies here: Prisma's pg adapter runs a migration script split at every semicolon,
-- so the function body is an E'' string whose statement ends are written \073.
DROP TRIGGER "ToolResult_explorer_ai" ON "ToolResult";
DROP FUNCTION "toolscope_explorer_result"();
CREATE FUNCTION "toolscope_explorer_results"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "ToolCall" c SET
    "resultEnvelopeKind" = n."envelopeKind", "resultSuccess" = n."success", "resultIsError" = n."isError",
    "resultErrorSource" = n."errorSource", "resultErrorType" = n."errorType", "resultConfidence" = n."confidence",
    "resultNextAction" = n."nextAction", "resultLate" = (c."resultLate" OR n."anyLate"),
    "latencyMs" = CASE WHEN n."hasFirst" THEN
      CASE WHEN n."firstDurationMs" >= 0 THEN n."firstDurationMs"
           WHEN n."firstReceivedAt" >= c."requestedAt" THEN round(EXTRACT(EPOCH FROM (n."firstReceivedAt" - c."requestedAt")) * 1000)
           ELSE NULL END
      ELSE c."latencyMs" END
  FROM (
    SELECT l."toolCallId", l."envelopeKind", l."success", l."isError", l."errorSource", l."errorType", l."confidence", l."nextAction",
      a."anyLate", f."toolCallId" IS NOT NULL AS "hasFirst", f."metaDurationMs" AS "firstDurationMs", f."receivedAt" AS "firstReceivedAt"
    FROM (SELECT DISTINCT ON ("toolCallId") * FROM new_rows ORDER BY "toolCallId", "ordinal" DESC) l
    JOIN (SELECT "toolCallId", bool_or("late") AS "anyLate" FROM new_rows GROUP BY "toolCallId") a ON a."toolCallId" = l."toolCallId"
    LEFT JOIN new_rows f ON f."toolCallId" = l."toolCallId" AND f."ordinal" = 0
  ) n
  WHERE c."id" = n."toolCallId" AND (
    c."resultEnvelopeKind" IS DISTINCT FROM n."envelopeKind" OR c."resultSuccess" IS DISTINCT FROM n."success"
    OR c."resultIsError" IS DISTINCT FROM n."isError" OR c."resultErrorSource" IS DISTINCT FROM n."errorSource"
    OR c."resultErrorType" IS DISTINCT FROM n."errorType" OR c."resultConfidence" IS DISTINCT FROM n."confidence"
    OR c."resultNextAction" IS DISTINCT FROM n."nextAction" OR (n."anyLate" AND NOT c."resultLate")
    OR (n."hasFirst" AND c."latencyMs" IS DISTINCT FROM
      CASE WHEN n."firstDurationMs" >= 0 THEN n."firstDurationMs"
           WHEN n."firstReceivedAt" >= c."requestedAt" THEN round(EXTRACT(EPOCH FROM (n."firstReceivedAt" - c."requestedAt")) * 1000)
           ELSE NULL END))\073
  RETURN NULL\073
END\073
';
CREATE TRIGGER "ToolResult_explorer_ai" AFTER INSERT ON "ToolResult" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "toolscope_explorer_results"();
