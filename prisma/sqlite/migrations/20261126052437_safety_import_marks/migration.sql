-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN "importedAt" DATETIME;
ALTER TABLE "Delivery" ADD COLUMN "importedBy" TEXT;

-- CreateTable
CREATE TABLE "AccessRecord" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "principal" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "detail" TEXT
);

-- CreateIndex
CREATE INDEX "AccessRecord_at_idx" ON "AccessRecord"("at");
