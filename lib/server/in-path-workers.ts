// The in-path background work of a server process: the outbox's dispatcher (relay targets resolved from
// TOOLSCOPE_RELAYS, alert destinations from TOOLSCOPE_NOTIFY), the sweeps that apply held results' and approvals'
// timeouts, and the alerts sweeper (time-based conditions, grouped messages).
import "server-only";
import { resolveNotifyDestination } from "../alerts/destinations.ts";
import { startAlertsSweeper } from "../alerts/sweep.ts";
import { setting } from "../config.ts";
import { startOutboxDispatcher } from "../outbox/service.ts";
import { expireApprovals } from "../relay/approvals-service.ts";
import { sweepExpiredHolds } from "../relay/holds-service.ts";
import { resolveRelayDestination } from "../relay/targets.ts";

export function startInPathWorkers(options: { sweepMs?: number } = {}): () => void {
  const dispatcher = startOutboxDispatcher({
    resolvers: { relay: resolveRelayDestination, notify: (id) => resolveNotifyDestination(id) },
    // How long a claimed message stays a worker's: a worker killed mid-attempt is taken over after it.
    leaseMs: setting("TOOLSCOPE_OUTBOX_LEASE_MS"),
  });
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    Promise.all([sweepExpiredHolds(), expireApprovals()])
      .catch((error: unknown) =>
        console.warn(`[toolscope] in-path sweep skipped: ${error instanceof Error ? error.message : error}`),
      )
      .finally(() => (running = false));
  }, options.sweepMs ?? 1_000);
  timer.unref();
  const stopAlerts = startAlertsSweeper(setting("TOOLSCOPE_ALERTS_SWEEP_MS"));
  return () => {
    stopAlerts();
    clearInterval(timer);
    void dispatcher.stop();
  };
}
