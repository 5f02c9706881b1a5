-- CreateTable
CREATE TABLE "AlertRule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "event" TEXT NOT NULL,
    "toolName" TEXT,
    "groupPattern" TEXT,
    "paramsJson" TEXT NOT NULL DEFAULT '{}',
    "notifyJson" TEXT NOT NULL,
    "cooldownMs" INTEGER NOT NULL,
    "mutedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedBy" TEXT NOT NULL,
    "lastFiredAt" DATETIME,
    "lastAlertId" INTEGER,
    "windowEndsAt" DATETIME,
    "heldCount" INTEGER NOT NULL DEFAULT 0,
    "heldSampleJson" TEXT,
    "flushAt" DATETIME,
    "windowStateJson" TEXT,
    "sweptUntil" DATETIME,
    "sweptId" INTEGER
);

-- CreateTable
CREATE TABLE "Alert" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ruleId" INTEGER,
    "ruleName" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "firedAt" DATETIME NOT NULL,
    "count" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "callsJson" TEXT NOT NULL,
    "destinationsJson" TEXT NOT NULL,
    "payloadJson" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "AlertRule_flushAt_idx" ON "AlertRule"("flushAt");

-- CreateIndex
CREATE INDEX "Alert_firedAt_idx" ON "Alert"("firedAt");

-- CreateIndex
CREATE INDEX "Alert_ruleId_id_idx" ON "Alert"("ruleId", "id");

-- CreateIndex
CREATE INDEX "HeldResult_status_heldAt_idx" ON "HeldResult"("status", "heldAt");
