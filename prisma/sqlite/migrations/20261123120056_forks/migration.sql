-- CreateTable
CREATE TABLE "ForkRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "threadId" INTEGER NOT NULL,
    "target" TEXT NOT NULL,
    "api" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "editsJson" TEXT NOT NULL,
    "maxTurns" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "historyEvents" INTEGER NOT NULL,
    "historyEndEventId" INTEGER NOT NULL DEFAULT 0,
    "historyEndCallId" INTEGER NOT NULL DEFAULT 0,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ForkRun_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ModelTurn" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "forkRunId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "historyEvents" INTEGER NOT NULL,
    "requestSha256" TEXT NOT NULL,
    "requestBytes" INTEGER NOT NULL,
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
    CONSTRAINT "ModelTurn_forkRunId_fkey" FOREIGN KEY ("forkRunId") REFERENCES "ForkRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Thread" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "groupId" TEXT NOT NULL,
    "title" TEXT,
    "vendor" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastActivityAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "forkOfId" INTEGER,
    "forkOfGroupId" TEXT,
    "forkAtStep" INTEGER,
    CONSTRAINT "Thread_forkOfId_fkey" FOREIGN KEY ("forkOfId") REFERENCES "Thread" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Thread" ("createdAt", "groupId", "id", "lastActivityAt", "title", "vendor") SELECT "createdAt", "groupId", "id", "lastActivityAt", "title", "vendor" FROM "Thread";
DROP TABLE "Thread";
ALTER TABLE "new_Thread" RENAME TO "Thread";
CREATE UNIQUE INDEX "Thread_groupId_key" ON "Thread"("groupId");
CREATE INDEX "Thread_lastActivityAt_idx" ON "Thread"("lastActivityAt");
CREATE INDEX "Thread_forkOfId_idx" ON "Thread"("forkOfId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ForkRun_threadId_key" ON "ForkRun"("threadId");

-- CreateIndex
CREATE UNIQUE INDEX "ModelTurn_forkRunId_ordinal_key" ON "ModelTurn"("forkRunId", "ordinal");
