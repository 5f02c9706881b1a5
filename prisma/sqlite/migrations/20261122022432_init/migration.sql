-- CreateTable
CREATE TABLE "Thread" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "groupId" TEXT NOT NULL,
    "title" TEXT,
    "vendor" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastActivityAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ToolCall" (
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
    CONSTRAINT "ToolCall_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ToolResult" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "toolCallId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "textEscaped" BOOLEAN NOT NULL DEFAULT false,
    "textSha256" TEXT NOT NULL,
    "textBytes" INTEGER NOT NULL,
    "contentSha256" TEXT NOT NULL,
    "displayAsJson" TEXT,
    "displayKind" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "late" BOOLEAN NOT NULL DEFAULT false,
    "isError" BOOLEAN NOT NULL DEFAULT false,
    "errorSource" TEXT,
    "envelopeKind" TEXT,
    "success" BOOLEAN,
    "confidence" REAL,
    "nextAction" TEXT,
    "errorType" TEXT,
    "errorMessage" TEXT,
    "errorRetryable" BOOLEAN,
    "errorUserMessage" TEXT,
    "metaToolName" TEXT,
    "metaToolVersion" TEXT,
    "metaTraceId" TEXT,
    "metaDurationMs" REAL,
    "metaCached" BOOLEAN,
    "isMcp" BOOLEAN NOT NULL DEFAULT false,
    "schemaStatus" TEXT,
    "invisibleCount" INTEGER NOT NULL DEFAULT 0,
    "secretCount" INTEGER NOT NULL DEFAULT 0,
    "analysisJson" TEXT NOT NULL,
    "deliveryId" INTEGER,
    CONSTRAINT "ToolResult_toolCallId_fkey" FOREIGN KEY ("toolCallId") REFERENCES "ToolCall" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Delivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "outcome" TEXT NOT NULL,
    "httpStatus" INTEGER NOT NULL,
    "reason" TEXT,
    "groupId" TEXT,
    "callKey" TEXT,
    "toolCallId" INTEGER,
    "resultId" INTEGER,
    "contentType" TEXT,
    "bodyBytes" INTEGER NOT NULL,
    "bodySha256" TEXT,
    "rawBody" BLOB,
    "rawBodyTruncated" BOOLEAN NOT NULL DEFAULT false,
    "remoteAddress" TEXT,
    "webhookId" TEXT
);

-- CreateTable
CREATE TABLE "Event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "threadId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "toolCallId" INTEGER,
    "resultId" INTEGER,
    "step" INTEGER,
    "role" TEXT,
    "text" TEXT,
    "textEscaped" BOOLEAN NOT NULL DEFAULT false,
    "dataJson" TEXT,
    "rawJson" TEXT,
    "source" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Event_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Thread_groupId_key" ON "Thread"("groupId");

-- CreateIndex
CREATE INDEX "Thread_lastActivityAt_idx" ON "Thread"("lastActivityAt");

-- CreateIndex
CREATE INDEX "ToolCall_threadId_id_idx" ON "ToolCall"("threadId", "id");

-- CreateIndex
CREATE INDEX "ToolCall_status_requestedAt_idx" ON "ToolCall"("status", "requestedAt");

-- CreateIndex
CREATE INDEX "ToolCall_subscription_lastResultAt_idx" ON "ToolCall"("subscription", "lastResultAt");

-- CreateIndex
CREATE INDEX "ToolCall_deadlineAt_idx" ON "ToolCall"("deadlineAt");

-- CreateIndex
CREATE INDEX "ToolCall_toolName_idx" ON "ToolCall"("toolName");

-- CreateIndex
CREATE UNIQUE INDEX "ToolCall_groupId_callKey_key" ON "ToolCall"("groupId", "callKey");

-- CreateIndex
CREATE INDEX "ToolResult_toolCallId_contentSha256_idx" ON "ToolResult"("toolCallId", "contentSha256");

-- CreateIndex
CREATE INDEX "ToolResult_receivedAt_idx" ON "ToolResult"("receivedAt");

-- CreateIndex
CREATE INDEX "ToolResult_confidence_idx" ON "ToolResult"("confidence");

-- CreateIndex
CREATE INDEX "ToolResult_nextAction_idx" ON "ToolResult"("nextAction");

-- CreateIndex
CREATE INDEX "ToolResult_errorType_idx" ON "ToolResult"("errorType");

-- CreateIndex
CREATE UNIQUE INDEX "ToolResult_toolCallId_ordinal_key" ON "ToolResult"("toolCallId", "ordinal");

-- CreateIndex
CREATE INDEX "Delivery_receivedAt_idx" ON "Delivery"("receivedAt");

-- CreateIndex
CREATE INDEX "Delivery_outcome_receivedAt_idx" ON "Delivery"("outcome", "receivedAt");

-- CreateIndex
CREATE INDEX "Delivery_groupId_receivedAt_idx" ON "Delivery"("groupId", "receivedAt");

-- CreateIndex
CREATE INDEX "Delivery_toolCallId_idx" ON "Delivery"("toolCallId");

-- CreateIndex
CREATE INDEX "Event_threadId_id_idx" ON "Event"("threadId", "id");

-- CreateIndex
CREATE INDEX "Event_toolCallId_idx" ON "Event"("toolCallId");
