// Subscriptions, active and cancelled, for the /subscriptions page, its API route and the pending page.
import "server-only";
import { maskDto } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { countSubscriptions, findSubscriptions } from "./repository.ts";
import type { SubscriptionList, SubscriptionsSnapshot, SubscriptionState } from "./schemas.ts";

export const SUBSCRIPTIONS_LIMIT = 200;

export async function listSubscriptions(options: {
  state: SubscriptionState;
  limit?: number;
  database?: Database;
}): Promise<SubscriptionList> {
  const db = options.database ?? (await getDatabase());
  const limit = options.limit ?? SUBSCRIPTIONS_LIMIT;
  const [total, items] = await Promise.all([
    countSubscriptions(db.client, options.state),
    findSubscriptions(db.client, { state: options.state, limit }),
  ]);
  // Cancellation reasons are runtime text: masked like every page string (lib/audit/mask).
  return { total, items: maskDto(items).value };
}

export async function getSubscriptionsSnapshot(
  options: { database?: Database; now?: Date } = {},
): Promise<SubscriptionsSnapshot> {
  const database = options.database ?? (await getDatabase());
  const [active, cancelled] = await Promise.all([
    listSubscriptions({ state: "active", database }),
    listSubscriptions({ state: "cancelled", database }),
  ]);
  return { generatedAt: (options.now ?? new Date()).toISOString(), limit: SUBSCRIPTIONS_LIMIT, active, cancelled };
}
