-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "importedAt" TIMESTAMP(3),
ADD COLUMN     "importedBy" TEXT;

-- CreateTable
CREATE TABLE "AccessRecord" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "principal" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "detail" TEXT,

    CONSTRAINT "AccessRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AccessRecord_at_idx" ON "AccessRecord"("at");
