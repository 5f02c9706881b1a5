-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ModelTurn" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "threadId" INTEGER NOT NULL,
    "eventId" INTEGER,
    "source" TEXT NOT NULL DEFAULT 'fork',
    "forkRunId" INTEGER,
    "ordinal" INTEGER NOT NULL DEFAULT 0,
    "model" TEXT,
    "responseId" TEXT,
    "status" TEXT NOT NULL,
    "historyEvents" INTEGER NOT NULL DEFAULT 0,
    "requestSha256" TEXT NOT NULL DEFAULT '',
    "requestBytes" INTEGER NOT NULL DEFAULT 0,
    "skippedJson" TEXT,
    "liveJson" TEXT,
    "responseJson" TEXT,
    "stopReason" TEXT,
    "toolCalls" INTEGER NOT NULL DEFAULT 0,
    "httpStatus" INTEGER,
    "errorText" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "totalTokens" INTEGER,
    "cachedInputTokens" INTEGER,
    "reasoningTokens" INTEGER,
    "usageJson" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "durationMs" REAL,
    CONSTRAINT "ModelTurn_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ModelTurn_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ModelTurn_forkRunId_fkey" FOREIGN KEY ("forkRunId") REFERENCES "ForkRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Hand-edited: existing turns are fork turns, their thread and model come from their ForkRun.
INSERT INTO "new_ModelTurn" ("cachedInputTokens", "errorText", "finishedAt", "forkRunId", "heartbeatAt", "historyEvents", "httpStatus", "id", "inputTokens", "liveJson", "ordinal", "outputTokens", "reasoningTokens", "requestBytes", "requestSha256", "responseJson", "skippedJson", "startedAt", "status", "stopReason", "toolCalls", "totalTokens", "usageJson", "threadId", "model", "source") SELECT t."cachedInputTokens", t."errorText", t."finishedAt", t."forkRunId", t."heartbeatAt", t."historyEvents", t."httpStatus", t."id", t."inputTokens", t."liveJson", t."ordinal", t."outputTokens", t."reasoningTokens", t."requestBytes", t."requestSha256", t."responseJson", t."skippedJson", t."startedAt", t."status", t."stopReason", t."toolCalls", t."totalTokens", t."usageJson", r."threadId", r."model", 'fork' FROM "ModelTurn" t JOIN "ForkRun" r ON r."id" = t."forkRunId";
DROP TABLE "ModelTurn";
ALTER TABLE "new_ModelTurn" RENAME TO "ModelTurn";
CREATE INDEX "ModelTurn_threadId_model_idx" ON "ModelTurn"("threadId", "model");
CREATE INDEX "ModelTurn_eventId_idx" ON "ModelTurn"("eventId");
CREATE UNIQUE INDEX "ModelTurn_forkRunId_ordinal_key" ON "ModelTurn"("forkRunId", "ordinal");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
