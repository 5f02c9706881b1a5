-- hand-written (explorer): the ToolResult insert trigger leaves alone a call that already holds the values it
-- would write. A writer that inserts a call with its result (OTLP ingest, lib/results/call-columns.ts) sets them
-- on the call row, and a second write of the call would rewrite the entries of every index on the changed columns.
-- Same values as before (20261126055445_explorer_calls): the newest result's verdict fields, any result late, and
-- the first result's latency.
DROP TRIGGER "ToolResult_explorer_ai";
CREATE TRIGGER "ToolResult_explorer_ai" AFTER INSERT ON "ToolResult" BEGIN
  UPDATE "ToolCall" SET
    "resultEnvelopeKind" = NEW."envelopeKind", "resultSuccess" = NEW."success", "resultIsError" = NEW."isError",
    "resultErrorSource" = NEW."errorSource", "resultErrorType" = NEW."errorType", "resultConfidence" = NEW."confidence",
    "resultNextAction" = NEW."nextAction", "resultLate" = ("resultLate" OR NEW."late"),
    "latencyMs" = CASE WHEN NEW."ordinal" = 0 THEN
      CASE WHEN NEW."metaDurationMs" >= 0 THEN NEW."metaDurationMs"
           WHEN julianday(NEW."receivedAt") >= julianday("requestedAt") THEN round((julianday(NEW."receivedAt") - julianday("requestedAt")) * 86400000.0)
           ELSE NULL END
      ELSE "latencyMs" END
  WHERE "id" = NEW."toolCallId" AND (
    "resultEnvelopeKind" IS NOT NEW."envelopeKind" OR "resultSuccess" IS NOT NEW."success" OR "resultIsError" IS NOT NEW."isError"
    OR "resultErrorSource" IS NOT NEW."errorSource" OR "resultErrorType" IS NOT NEW."errorType" OR "resultConfidence" IS NOT NEW."confidence"
    OR "resultNextAction" IS NOT NEW."nextAction" OR (NEW."late" AND NOT "resultLate")
    OR (NEW."ordinal" = 0 AND "latencyMs" IS NOT CASE WHEN NEW."metaDurationMs" >= 0 THEN NEW."metaDurationMs"
           WHEN julianday(NEW."receivedAt") >= julianday("requestedAt") THEN round((julianday(NEW."receivedAt") - julianday("requestedAt")) * 86400000.0)
           ELSE NULL END));
END;
