-- CreateTable
CREATE TABLE "OtelSpan" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "traceId" TEXT NOT NULL,
    "spanId" TEXT NOT NULL,
    "parentSpanId" TEXT,
    "name" TEXT NOT NULL,
    "startNs" TEXT NOT NULL,
    "endNs" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "scopeSha256" TEXT NOT NULL,
    "spanJson" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OtelScope" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "json" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OtelTrace" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "traceId" TEXT NOT NULL,
    "groupId" TEXT NOT NULL,
    "orderKey" TEXT NOT NULL,
    "stateJson" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "OtelSpan_receivedAt_idx" ON "OtelSpan"("receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "OtelSpan_traceId_spanId_key" ON "OtelSpan"("traceId", "spanId");

-- CreateIndex
CREATE UNIQUE INDEX "OtelTrace_traceId_key" ON "OtelTrace"("traceId");

-- CreateIndex
CREATE INDEX "OtelTrace_groupId_orderKey_idx" ON "OtelTrace"("groupId", "orderKey");
