-- CreateTable
CREATE TABLE "OtelSpan" (
    "id" SERIAL NOT NULL,
    "traceId" TEXT NOT NULL,
    "spanId" TEXT NOT NULL,
    "parentSpanId" TEXT,
    "name" TEXT NOT NULL,
    "startNs" TEXT NOT NULL,
    "endNs" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "scopeSha256" TEXT NOT NULL,
    "spanJson" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OtelSpan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OtelScope" (
    "sha256" TEXT NOT NULL,
    "json" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OtelScope_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "OtelTrace" (
    "id" SERIAL NOT NULL,
    "traceId" TEXT NOT NULL,
    "groupId" TEXT NOT NULL,
    "orderKey" TEXT NOT NULL,
    "stateJson" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OtelTrace_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OtelSpan_receivedAt_idx" ON "OtelSpan"("receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "OtelSpan_traceId_spanId_key" ON "OtelSpan"("traceId", "spanId");

-- CreateIndex
CREATE UNIQUE INDEX "OtelTrace_traceId_key" ON "OtelTrace"("traceId");

-- CreateIndex
CREATE INDEX "OtelTrace_groupId_orderKey_idx" ON "OtelTrace"("groupId", "orderKey");
