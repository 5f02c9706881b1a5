// `npm run toolscope -- prune [--dry-run] [--days N] [--max-bytes B] [--vacuum] [--json]`: apply retention to
// DATABASE_URL now (the settings default to TOOLSCOPE_RETENTION_DAYS / TOOLSCOPE_RETENTION_MAX_BYTES).
// Safe beside a running server: small transactions, each waiting its turn for the write lock.
import { setting } from "../lib/config.ts";
import type { Database } from "../lib/db/client.ts";
import { AppError } from "../lib/http/app-error.ts";
import { enableIncrementalVacuum, spaceFacts } from "../lib/lifecycle/repository.ts";
import { prune, type PruneReport } from "../lib/lifecycle/service.ts";

export type PruneFlags = { "dry-run"?: boolean; days?: string; "max-bytes"?: string; vacuum?: boolean; json?: boolean };

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new AppError("invalid", `--${flag} must be a positive number, got "${value}"`);
  return parsed;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function describe(report: PruneReport): string {
  const lines = [
    `${report.dryRun ? "would remove" : "removed"} ${report.threads.length} threads${report.cutoff ? ` (cutoff ${report.cutoff})` : ""}; data ${mib(report.usedBytes)}${report.maxBytes ? ` of at most ${mib(report.maxBytes)}` : ""}`,
  ];
  for (const thread of report.threads.slice(0, 20))
    lines.push(`  ${thread.groupId}  last activity ${thread.lastActivityAt}  (${thread.reason})`);
  if (report.threads.length > 20) lines.push(`  … and ${report.threads.length - 20} more`);
  const orphans = Object.entries(report.orphans).filter(([, n]) => n > 0);
  if (orphans.length > 0) lines.push(`rows of no thread: ${orphans.map(([table, n]) => `${table} ${n}`).join(", ")}`);
  if (!report.dryRun) {
    lines.push(
      `rows deleted: ${
        Object.entries(report.deleted)
          .map(([table, n]) => `${table} ${n}`)
          .join(", ") || "none"
      }`,
    );
    lines.push(`space given back: ${mib(report.vacuumedBytes)}; data now ${mib(report.usedBytesAfter)}`);
  }
  return `${lines.join("\n")}\n`;
}

export async function pruneCommand(database: Database, flags: PruneFlags): Promise<number> {
  if (flags.vacuum) {
    const before = await spaceFacts(database);
    if (database.provider === "sqlite" && before.autoVacuum !== "incremental") {
      process.stderr.write(
        "switching the SQLite file to incremental auto-vacuum (one full VACUUM; it waits for other writers)…\n",
      );
      await enableIncrementalVacuum(database);
    }
  }
  const days = number("days", flags.days);
  const maxBytes = number("max-bytes", flags["max-bytes"]);
  if (
    days === undefined &&
    maxBytes === undefined &&
    setting("TOOLSCOPE_RETENTION_DAYS") === undefined &&
    setting("TOOLSCOPE_RETENTION_MAX_BYTES") === undefined
  ) {
    throw new AppError(
      "invalid",
      "nothing to prune by: give --days and/or --max-bytes, or set TOOLSCOPE_RETENTION_DAYS / TOOLSCOPE_RETENTION_MAX_BYTES",
    );
  }
  const report = await prune({
    database,
    dryRun: flags["dry-run"] === true,
    ...(days !== undefined ? { days } : {}),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
  });
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : describe(report));
  return 0;
}
