// A per-process cap on request body bytes held in memory at once (TOOLSCOPE_MAX_INFLIGHT_BYTES, default
// 64 MiB). Each request reserves its bytes as they stream in and gives them back when its answer is sent;
// a request that would pass the cap is answered 503 with Retry-After before more of it is read. Without it,
// eight parallel 15 MB uploads took the process from 636 MB to 1.11 GB resident.
import { setting } from "../config.ts";
import { AppError } from "./app-error.ts";

export const DEFAULT_MAX_INFLIGHT_BYTES = 64 * 1024 * 1024;

function capFromEnv(): number {
  return setting("TOOLSCOPE_MAX_INFLIGHT_BYTES");
}

const globalBudget = globalThis as typeof globalThis & { toolscopeInflight?: { held: number; cap: number } };

function budget(): { held: number; cap: number } {
  globalBudget.toolscopeInflight ??= { held: 0, cap: capFromEnv() };
  return globalBudget.toolscopeInflight;
}

/** Bytes currently held by request bodies in this process (tests and the storage view read it). */
export function inflightBytes(): number {
  return budget().held;
}

/** Tests change the cap at run time. */
export function setInflightCap(cap: number): void {
  budget().cap = cap;
}

/** One request's share of the budget: reserve as bytes arrive, release once (idempotent) when answered. */
export class BodyReservation {
  private held = 0;

  /** Takes `bytes` more; throws the 503 when the process-wide cap would be passed. */
  reserve(bytes: number): void {
    const shared = budget();
    if (shared.held + bytes > shared.cap) {
      throw new AppError(
        "unavailable",
        `Too many request bytes in flight on this server (cap ${shared.cap}, TOOLSCOPE_MAX_INFLIGHT_BYTES); retry shortly`,
        {
          retryAfterSeconds: 1,
        },
      );
    }
    shared.held += bytes;
    this.held += bytes;
  }

  release(): void {
    budget().held -= this.held;
    this.held = 0;
  }
}
