-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "removingAt" TIMESTAMP(3);
