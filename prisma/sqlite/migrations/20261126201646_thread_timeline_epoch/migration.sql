-- hand-written: Prisma's diff rebuilt "Thread" (new table, copy, DROP TABLE), which would drop the tally
-- triggers on it (Thread_tally_ai / Thread_tally_ad); SQLite adds a NOT NULL column with a constant default in place.
ALTER TABLE "Thread" ADD COLUMN "timelineEpoch" INTEGER NOT NULL DEFAULT 0;
