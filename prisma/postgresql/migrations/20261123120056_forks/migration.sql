-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "forkAtStep" INTEGER,
ADD COLUMN     "forkOfGroupId" TEXT,
ADD COLUMN     "forkOfId" INTEGER;

-- CreateTable
CREATE TABLE "ForkRun" (
    "id" SERIAL NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ForkRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelTurn" (
    "id" SERIAL NOT NULL,
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
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ModelTurn_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ForkRun_threadId_key" ON "ForkRun"("threadId");

-- CreateIndex
CREATE UNIQUE INDEX "ModelTurn_forkRunId_ordinal_key" ON "ModelTurn"("forkRunId", "ordinal");

-- CreateIndex
CREATE INDEX "Thread_forkOfId_idx" ON "Thread"("forkOfId");

-- AddForeignKey
ALTER TABLE "Thread" ADD CONSTRAINT "Thread_forkOfId_fkey" FOREIGN KEY ("forkOfId") REFERENCES "Thread"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ForkRun" ADD CONSTRAINT "ForkRun_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelTurn" ADD CONSTRAINT "ModelTurn_forkRunId_fkey" FOREIGN KEY ("forkRunId") REFERENCES "ForkRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
