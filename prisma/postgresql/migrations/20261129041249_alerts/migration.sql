-- CreateTable
CREATE TABLE "AlertRule" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "event" TEXT NOT NULL,
    "toolName" TEXT,
    "groupPattern" TEXT,
    "paramsJson" TEXT NOT NULL DEFAULT '{}',
    "notifyJson" TEXT NOT NULL,
    "cooldownMs" INTEGER NOT NULL,
    "mutedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedBy" TEXT NOT NULL,
    "lastFiredAt" TIMESTAMP(3),
    "lastAlertId" INTEGER,
    "windowEndsAt" TIMESTAMP(3),
    "heldCount" INTEGER NOT NULL DEFAULT 0,
    "heldSampleJson" TEXT,
    "flushAt" TIMESTAMP(3),
    "windowStateJson" TEXT,
    "sweptUntil" TIMESTAMP(3),
    "sweptId" INTEGER,

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Alert" (
    "id" SERIAL NOT NULL,
    "ruleId" INTEGER,
    "ruleName" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "firedAt" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "callsJson" TEXT NOT NULL,
    "destinationsJson" TEXT NOT NULL,
    "payloadJson" TEXT NOT NULL,

    CONSTRAINT "Alert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AlertRule_flushAt_idx" ON "AlertRule"("flushAt");

-- CreateIndex
CREATE INDEX "Alert_firedAt_idx" ON "Alert"("firedAt");

-- CreateIndex
CREATE INDEX "Alert_ruleId_id_idx" ON "Alert"("ruleId", "id");

-- CreateIndex
CREATE INDEX "HeldResult_status_heldAt_idx" ON "HeldResult"("status", "heldAt");
