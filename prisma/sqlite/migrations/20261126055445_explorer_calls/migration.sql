-- CreateTable
CREATE TABLE "RowTally" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ToolCall" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "threadId" INTEGER NOT NULL,
    "groupId" TEXT NOT NULL,
    "callKey" TEXT NOT NULL,
    "callId" TEXT,
    "toolName" TEXT NOT NULL,
    "argumentsText" TEXT,
    "argumentsEscaped" BOOLEAN NOT NULL DEFAULT false,
    "argumentsJson" TEXT,
    "argumentsError" TEXT,
    "declarationJson" TEXT,
    "outputSchemaJson" TEXT,
    "vendor" TEXT,
    "step" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "subscription" TEXT,
    "requestedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME,
    "deadlineAt" DATETIME,
    "timedOutAt" DATETIME,
    "resultCount" INTEGER NOT NULL DEFAULT 0,
    "lastResultAt" DATETIME,
    "registrationSha256" TEXT NOT NULL,
    "latencyMs" REAL,
    "resultEnvelopeKind" TEXT,
    "resultSuccess" BOOLEAN,
    "resultIsError" BOOLEAN,
    "resultErrorSource" TEXT,
    "resultErrorType" TEXT,
    "resultConfidence" REAL,
    "resultNextAction" TEXT,
    "resultLate" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "ToolCall_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ToolCall" ("argumentsError", "argumentsEscaped", "argumentsJson", "argumentsText", "callId", "callKey", "completedAt", "deadlineAt", "declarationJson", "groupId", "id", "lastResultAt", "outputSchemaJson", "registrationSha256", "requestedAt", "resultCount", "status", "step", "subscription", "threadId", "timedOutAt", "toolName", "vendor") SELECT "argumentsError", "argumentsEscaped", "argumentsJson", "argumentsText", "callId", "callKey", "completedAt", "deadlineAt", "declarationJson", "groupId", "id", "lastResultAt", "outputSchemaJson", "registrationSha256", "requestedAt", "resultCount", "status", "step", "subscription", "threadId", "timedOutAt", "toolName", "vendor" FROM "ToolCall";
DROP TABLE "ToolCall";
ALTER TABLE "new_ToolCall" RENAME TO "ToolCall";
CREATE INDEX "ToolCall_threadId_id_idx" ON "ToolCall"("threadId", "id");
CREATE INDEX "ToolCall_status_requestedAt_idx" ON "ToolCall"("status", "requestedAt");
CREATE INDEX "ToolCall_subscription_lastResultAt_idx" ON "ToolCall"("subscription", "lastResultAt");
CREATE INDEX "ToolCall_deadlineAt_idx" ON "ToolCall"("deadlineAt");
CREATE INDEX "ToolCall_toolName_idx" ON "ToolCall"("toolName");
CREATE INDEX "ToolCall_requestedAt_idx" ON "ToolCall"("requestedAt");
CREATE INDEX "ToolCall_toolName_requestedAt_idx" ON "ToolCall"("toolName", "requestedAt");
CREATE INDEX "ToolCall_vendor_requestedAt_idx" ON "ToolCall"("vendor", "requestedAt");
CREATE INDEX "ToolCall_resultErrorType_requestedAt_idx" ON "ToolCall"("resultErrorType", "requestedAt");
CREATE INDEX "ToolCall_resultNextAction_requestedAt_idx" ON "ToolCall"("resultNextAction", "requestedAt");
CREATE INDEX "ToolCall_resultConfidence_idx" ON "ToolCall"("resultConfidence");
CREATE INDEX "ToolCall_latencyMs_idx" ON "ToolCall"("latencyMs");
CREATE INDEX "ToolCall_resultEnvelopeKind_requestedAt_idx" ON "ToolCall"("resultEnvelopeKind", "requestedAt");
CREATE INDEX "ToolCall_resultLate_requestedAt_idx" ON "ToolCall"("resultLate", "requestedAt");
CREATE INDEX "ToolCall_timedOutAt_idx" ON "ToolCall"("timedOutAt");
CREATE INDEX "ToolCall_resultIsError_toolName_resultErrorType_resultErrorSource_idx" ON "ToolCall"("resultIsError", "toolName", "resultErrorType", "resultErrorSource");
CREATE UNIQUE INDEX "ToolCall_groupId_callKey_key" ON "ToolCall"("groupId", "callKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ToolResult_envelopeKind_idx" ON "ToolResult"("envelopeKind");

-- hand-written (explorer):
-- The explorer's per-call columns, kept by a trigger so every writer of ToolResult keeps them (lib/explorer/README.md):
-- the newest result's verdict fields, any result late, and the first result's latency (meta.durationMs when the
-- tool reported a usable one, else first result − request; a negative wall-clock difference is no measurement).
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
  WHERE "id" = NEW."toolCallId";
END;

-- Full-text search over arguments and result text (FTS5, contentless: the text is not stored twice; rowid = the row's id).
-- The first 100,000 characters of each text are indexed, as on PostgreSQL.
CREATE VIRTUAL TABLE "ToolCallSearch" USING fts5(body, content='', contentless_delete=1, tokenize='unicode61');
CREATE VIRTUAL TABLE "ToolResultSearch" USING fts5(body, content='', contentless_delete=1, tokenize='unicode61');
CREATE TRIGGER "ToolCall_search_ai" AFTER INSERT ON "ToolCall" WHEN NEW."argumentsText" IS NOT NULL BEGIN
  INSERT INTO "ToolCallSearch"(rowid, body) VALUES (NEW."id", substr(NEW."argumentsText", 1, 100000));
END;
CREATE TRIGGER "ToolCall_search_au" AFTER UPDATE OF "argumentsText" ON "ToolCall" BEGIN
  DELETE FROM "ToolCallSearch" WHERE rowid = OLD."id";
  INSERT INTO "ToolCallSearch"(rowid, body) SELECT NEW."id", substr(NEW."argumentsText", 1, 100000) WHERE NEW."argumentsText" IS NOT NULL;
END;
CREATE TRIGGER "ToolCall_search_ad" AFTER DELETE ON "ToolCall" BEGIN
  DELETE FROM "ToolCallSearch" WHERE rowid = OLD."id";
END;
CREATE TRIGGER "ToolResult_search_ai" AFTER INSERT ON "ToolResult" BEGIN
  INSERT INTO "ToolResultSearch"(rowid, body) VALUES (NEW."id", substr(NEW."text", 1, 100000));
END;
CREATE TRIGGER "ToolResult_search_ad" AFTER DELETE ON "ToolResult" BEGIN
  DELETE FROM "ToolResultSearch" WHERE rowid = OLD."id";
END;

-- Backfill: what the triggers would have written for the rows already stored.
UPDATE "ToolCall" SET
  "resultEnvelopeKind" = r."envelopeKind", "resultSuccess" = r."success", "resultIsError" = r."isError",
  "resultErrorSource" = r."errorSource", "resultErrorType" = r."errorType", "resultConfidence" = r."confidence",
  "resultNextAction" = r."nextAction"
FROM "ToolResult" r WHERE r."toolCallId" = "ToolCall"."id" AND r."ordinal" = "ToolCall"."resultCount" - 1;
UPDATE "ToolCall" SET "resultLate" = TRUE WHERE EXISTS (SELECT 1 FROM "ToolResult" r WHERE r."toolCallId" = "ToolCall"."id" AND r."late");
UPDATE "ToolCall" SET "latencyMs" =
  CASE WHEN r."metaDurationMs" >= 0 THEN r."metaDurationMs"
       WHEN julianday(r."receivedAt") >= julianday("ToolCall"."requestedAt") THEN round((julianday(r."receivedAt") - julianday("ToolCall"."requestedAt")) * 86400000.0)
       ELSE NULL END
FROM "ToolResult" r WHERE r."toolCallId" = "ToolCall"."id" AND r."ordinal" = 0;
INSERT INTO "ToolCallSearch"(rowid, body) SELECT "id", substr("argumentsText", 1, 100000) FROM "ToolCall" WHERE "argumentsText" IS NOT NULL;
INSERT INTO "ToolResultSearch"(rowid, body) SELECT "id", substr("text", 1, 100000) FROM "ToolResult";

-- Row tallies for the overview (RowTally): one upsert per inserted row, one update per deleted row or status change.
CREATE TRIGGER "Thread_tally_ai" AFTER INSERT ON "Thread" BEGIN
  INSERT INTO "RowTally"("key", "count") VALUES ('threads', 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "Thread_tally_ad" AFTER DELETE ON "Thread" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" = 'threads';
END;
CREATE TRIGGER "ToolCall_tally_ai" AFTER INSERT ON "ToolCall" BEGIN
  INSERT INTO "RowTally"("key", "count") VALUES ('calls', 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
  INSERT INTO "RowTally"("key", "count") VALUES ('calls.status:' || NEW."status", 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "ToolCall_tally_au" AFTER UPDATE OF "status" ON "ToolCall" WHEN OLD."status" IS NOT NEW."status" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" = 'calls.status:' || OLD."status";
  INSERT INTO "RowTally"("key", "count") VALUES ('calls.status:' || NEW."status", 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "ToolCall_tally_ad" AFTER DELETE ON "ToolCall" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" IN ('calls', 'calls.status:' || OLD."status");
END;
CREATE TRIGGER "ToolResult_tally_ai" AFTER INSERT ON "ToolResult" BEGIN
  INSERT INTO "RowTally"("key", "count") VALUES ('results', 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
  INSERT INTO "RowTally"("key", "count") SELECT 'results.confidence<0.5', 1 WHERE NEW."confidence" < 0.5 ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
  INSERT INTO "RowTally"("key", "count") SELECT 'results.nextAction:' || NEW."nextAction", 1 WHERE NEW."nextAction" IS NOT NULL ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "ToolResult_tally_ad" AFTER DELETE ON "ToolResult" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" = 'results' OR ("key" = 'results.confidence<0.5' AND OLD."confidence" < 0.5)
    OR "key" = 'results.nextAction:' || OLD."nextAction";
END;
CREATE TRIGGER "Delivery_tally_ai" AFTER INSERT ON "Delivery" BEGIN
  INSERT INTO "RowTally"("key", "count") VALUES ('deliveries', 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
  INSERT INTO "RowTally"("key", "count") VALUES ('deliveries.outcome:' || NEW."outcome", 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "Delivery_tally_au" AFTER UPDATE OF "outcome" ON "Delivery" WHEN OLD."outcome" IS NOT NEW."outcome" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" = 'deliveries.outcome:' || OLD."outcome";
  INSERT INTO "RowTally"("key", "count") VALUES ('deliveries.outcome:' || NEW."outcome", 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "Delivery_tally_ad" AFTER DELETE ON "Delivery" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" IN ('deliveries', 'deliveries.outcome:' || OLD."outcome");
END;
CREATE TRIGGER "Event_tally_ai" AFTER INSERT ON "Event" BEGIN
  INSERT INTO "RowTally"("key", "count") VALUES ('events', 1) ON CONFLICT("key") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "Event_tally_ad" AFTER DELETE ON "Event" BEGIN
  UPDATE "RowTally" SET "count" = "count" - 1 WHERE "key" = 'events';
END;
INSERT INTO "RowTally"("key", "count") SELECT 'threads', COUNT(*) FROM "Thread";
INSERT INTO "RowTally"("key", "count") SELECT 'events', COUNT(*) FROM "Event";
INSERT INTO "RowTally"("key", "count") SELECT 'calls', COUNT(*) FROM "ToolCall";
INSERT INTO "RowTally"("key", "count") SELECT 'calls.status:' || "status", COUNT(*) FROM "ToolCall" GROUP BY "status";
INSERT INTO "RowTally"("key", "count") SELECT 'results', COUNT(*) FROM "ToolResult";
INSERT INTO "RowTally"("key", "count") SELECT 'results.confidence<0.5', COUNT(*) FROM "ToolResult" WHERE "confidence" < 0.5;
INSERT INTO "RowTally"("key", "count") SELECT 'results.nextAction:' || "nextAction", COUNT(*) FROM "ToolResult" WHERE "nextAction" IS NOT NULL GROUP BY "nextAction";
INSERT INTO "RowTally"("key", "count") SELECT 'deliveries', COUNT(*) FROM "Delivery";
INSERT INTO "RowTally"("key", "count") SELECT 'deliveries.outcome:' || "outcome", COUNT(*) FROM "Delivery" GROUP BY "outcome";
