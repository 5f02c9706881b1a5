// The advisory lock key that serializes PostgreSQL write transactions (lib/db/client.ts explains why).
export const TIMELINE_LOCK_KEY = 7_336_001;
