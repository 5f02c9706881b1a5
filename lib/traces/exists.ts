// Existence checks for pages: a thread or call page's layout asks these before anything streams, so a missing
// thread or call answers HTTP 404 (a notFound() inside a streamed page can only answer 200).
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { callExists as callRowExists, threadExists as threadRowExists } from "./repository/threads.ts";

export async function threadExists(options: { groupId: string; database?: Database }): Promise<boolean> {
  const db = options.database ?? (await getDatabase());
  return threadRowExists(db.client, options.groupId);
}

export async function callExists(options: { callRowId: number; database?: Database }): Promise<boolean> {
  const db = options.database ?? (await getDatabase());
  return callRowExists(db.client, options.callRowId);
}
