-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "removingAt" DATETIME;
