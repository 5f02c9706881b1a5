-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "timelineEpoch" INTEGER NOT NULL DEFAULT 0;
