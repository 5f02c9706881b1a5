-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN     "durationMs" DOUBLE PRECISION,
ADD COLUMN     "eventId" INTEGER,
ADD COLUMN     "model" TEXT,
ADD COLUMN     "responseId" TEXT,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'fork',
ADD COLUMN     "threadId" INTEGER,
ALTER COLUMN "forkRunId" DROP NOT NULL,
ALTER COLUMN "ordinal" SET DEFAULT 0,
ALTER COLUMN "historyEvents" SET DEFAULT 0,
ALTER COLUMN "requestSha256" SET DEFAULT '',
ALTER COLUMN "requestBytes" SET DEFAULT 0;

-- Hand-edited: existing turns are fork turns, their thread and model come from their ForkRun.
UPDATE "ModelTurn" t SET "threadId" = r."threadId", "model" = r."model" FROM "ForkRun" r WHERE r."id" = t."forkRunId";
ALTER TABLE "ModelTurn" ALTER COLUMN "threadId" SET NOT NULL;

-- CreateIndex
CREATE INDEX "ModelTurn_threadId_model_idx" ON "ModelTurn"("threadId", "model");

-- CreateIndex
CREATE INDEX "ModelTurn_eventId_idx" ON "ModelTurn"("eventId");

-- AddForeignKey
ALTER TABLE "ModelTurn" ADD CONSTRAINT "ModelTurn_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelTurn" ADD CONSTRAINT "ModelTurn_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;
