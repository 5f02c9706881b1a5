-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "answeredBy" TEXT,
ADD COLUMN     "relay" TEXT,
ADD COLUMN     "relayWebhookId" TEXT;

-- CreateTable
CREATE TABLE "OutboxMessage" (
    "id" SERIAL NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "orderKey" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "body" BYTEA NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "retryBase" INTEGER NOT NULL DEFAULT 0,
    "retriedAt" TIMESTAMP(3),
    "retriedBy" TEXT,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "deadAt" TIMESTAMP(3),
    "deadReason" TEXT,
    "groupId" TEXT,
    "callKey" TEXT,
    "toolCallId" INTEGER,
    "fault" TEXT,

    CONSTRAINT "OutboxMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxAttempt" (
    "id" SERIAL NOT NULL,
    "messageId" INTEGER NOT NULL,
    "number" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "httpStatus" INTEGER,
    "error" TEXT,
    "responseBody" TEXT,
    "worker" TEXT NOT NULL,

    CONSTRAINT "OutboxAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BreakpointRule" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "relay" TEXT,
    "toolName" TEXT,
    "groupPattern" TEXT,
    "textContains" TEXT,
    "confidenceBelow" DOUBLE PRECISION,
    "successFalse" BOOLEAN NOT NULL DEFAULT false,
    "errorOnly" BOOLEAN NOT NULL DEFAULT false,
    "nextAction" TEXT,
    "timeoutMs" INTEGER NOT NULL,
    "onTimeout" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "BreakpointRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FaultRule" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "relay" TEXT,
    "toolName" TEXT,
    "groupPattern" TEXT,
    "action" TEXT NOT NULL,
    "probability" DOUBLE PRECISION NOT NULL,
    "delayMs" INTEGER,
    "errorText" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "FaultRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HeldResult" (
    "id" SERIAL NOT NULL,
    "messageId" INTEGER NOT NULL,
    "ruleId" INTEGER,
    "ruleName" TEXT NOT NULL,
    "relay" TEXT NOT NULL,
    "groupId" TEXT NOT NULL,
    "callKey" TEXT NOT NULL,
    "toolCallId" INTEGER,
    "toolName" TEXT,
    "heldAt" TIMESTAMP(3) NOT NULL,
    "timeoutAt" TIMESTAMP(3) NOT NULL,
    "onTimeout" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'held',
    "decidedAt" TIMESTAMP(3),
    "decidedBy" TEXT,
    "originalBody" BYTEA NOT NULL,
    "deliveredBody" BYTEA,
    "changeJson" TEXT,

    CONSTRAINT "HeldResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Intervention" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "groupId" TEXT,
    "callKey" TEXT,
    "toolCallId" INTEGER,
    "messageId" INTEGER,
    "holdId" INTEGER,
    "approvalId" INTEGER,
    "detailJson" TEXT,

    CONSTRAINT "Intervention_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" SERIAL NOT NULL,
    "groupId" TEXT NOT NULL,
    "callKey" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "argumentsText" TEXT NOT NULL,
    "relay" TEXT,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "requestedBy" TEXT NOT NULL,
    "timeoutAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decidedAt" TIMESTAMP(3),
    "decidedBy" TEXT,
    "reason" TEXT,
    "editedArguments" TEXT,

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalRule" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "toolName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,

    CONSTRAINT "ApprovalRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OutboxMessage_status_nextAttemptAt_idx" ON "OutboxMessage"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "OutboxMessage_status_leaseUntil_idx" ON "OutboxMessage"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "OutboxMessage_orderKey_id_idx" ON "OutboxMessage"("orderKey", "id");

-- CreateIndex
CREATE INDEX "OutboxMessage_toolCallId_idx" ON "OutboxMessage"("toolCallId");

-- CreateIndex
CREATE INDEX "OutboxMessage_webhookId_idx" ON "OutboxMessage"("webhookId");

-- CreateIndex
CREATE INDEX "OutboxMessage_createdAt_idx" ON "OutboxMessage"("createdAt");

-- CreateIndex
CREATE INDEX "OutboxAttempt_messageId_id_idx" ON "OutboxAttempt"("messageId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "HeldResult_messageId_key" ON "HeldResult"("messageId");

-- CreateIndex
CREATE INDEX "HeldResult_status_timeoutAt_idx" ON "HeldResult"("status", "timeoutAt");

-- CreateIndex
CREATE INDEX "HeldResult_toolCallId_idx" ON "HeldResult"("toolCallId");

-- CreateIndex
CREATE INDEX "HeldResult_groupId_id_idx" ON "HeldResult"("groupId", "id");

-- CreateIndex
CREATE INDEX "Intervention_at_idx" ON "Intervention"("at");

-- CreateIndex
CREATE INDEX "Intervention_toolCallId_id_idx" ON "Intervention"("toolCallId", "id");

-- CreateIndex
CREATE INDEX "Intervention_groupId_id_idx" ON "Intervention"("groupId", "id");

-- CreateIndex
CREATE INDEX "Approval_status_requestedAt_idx" ON "Approval"("status", "requestedAt");

-- CreateIndex
CREATE INDEX "Approval_groupId_callKey_idx" ON "Approval"("groupId", "callKey");

-- AddForeignKey
ALTER TABLE "OutboxAttempt" ADD CONSTRAINT "OutboxAttempt_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "OutboxMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
