// npm run toolscope -- <command>: import transcripts, export threads, re-deliver a thread's recorded callbacks,
// and manage access (users, API keys) in the database DATABASE_URL names.
// Exit codes: 0 done, 1 the operation failed (rejected input, HTTP error, unreachable server), 2 usage error.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { parseArgs } from "node:util";
import { openDatabase, type Database } from "../lib/db/client.ts";
import { redactDatabaseUrl, resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations, MigrationBlocked } from "../lib/db/migrate.ts";
import { AppError } from "../lib/http/app-error.ts";
import { accessCommand } from "./toolscope-access.ts";
import { signatureHeaders } from "../lib/ingest/webhook-signature.ts";
import { parseExport, readExportText } from "../lib/traces/read-export.ts";
import { IMPORT_FORMATS, type ImportFormat, type ImportResult } from "../lib/traces/schemas.ts";
import { importTranscript, openThreadExport, type ImportProgress } from "../lib/traces/service.ts";
import { Progress, readFileWithProgress } from "./cli-progress.ts";
import { pruneCommand } from "./toolscope-prune.ts";

const USAGE = `Usage: npm run toolscope -- <command> [options]

Commands:
  import <file> [--format F] [--group-id G] [--name N] [--to <base-url>] [--json]
      Import a vendor transcript (${IMPORT_FORMATS.filter((f) => f !== "toolscope").join(", ")})
      or a Toolscope JSONL export as one thread. The format is detected unless --format is given.
      Default: writes to the database DATABASE_URL names (migrating it first).
      --to http://host:3000 posts the file to that server's /api/import instead.

  export <group-id> [--out <file>] [--from <base-url>]
      Write a thread as lossless Toolscope JSONL (to stdout, or --out). --from reads it from a server.

  redeliver <export.jsonl> --to <callback-url> [--secret whsec_…] [--realtime]
      Re-send the thread's recorded tool_result deliveries, raw bodies byte for byte, in their original
      order (duplicates and rejected ones included), and print what each answered. --secret signs them
      (Standard Webhooks); --realtime keeps the original spacing between them.

  users create --email E --password P [--name N]
      Add a dashboard user (exposed mode: TOOLSCOPE_SECRET set). The first one is the first admin.
  users list

  keys create --name N --scope ingest|read|admin
      Create an API key; the key is printed once, alone on the last line of stdout.
  keys list
  keys revoke <id>

  prune [--dry-run] [--days N] [--max-bytes B] [--vacuum] [--json]
      Apply retention now: remove threads inactive for N days (default TOOLSCOPE_RETENTION_DAYS) and/or the
      oldest threads past B bytes of data (TOOLSCOPE_RETENTION_MAX_BYTES), with their results, events, audit
      rows and spans, plus refused deliveries of no thread; then give the space back. --dry-run only lists
      what would go. --vacuum first switches an older SQLite file to incremental auto-vacuum (one VACUUM).

Exit codes: 0 done · 1 failed (rejected, HTTP error, unreachable) · 2 usage error.`;

class UsageError extends Error {}

function contentTypeOf(file: string): string {
  const lower = file.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "application/x-ndjson";
  if (lower.endsWith(".json")) return "application/json";
  // Any other text: the format is detected from the content; text/plain is refused (any web page can send it).
  return "application/x-ndjson";
}

function baseUrl(value: string, option: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
    return url;
  } catch {
    throw new UsageError(`${option} must be an http(s) URL, got "${value}"`);
  }
}

async function readAnswer(response: Response): Promise<string> {
  const text = await response.text();
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} characters)` : text;
}

function isImportFormat(value: string): value is ImportFormat {
  return IMPORT_FORMATS.some((format) => format === value);
}

async function openLocalDatabase(): Promise<Database> {
  const target = resolveDatabaseTarget();
  const report = await applyMigrations(target);
  if (report.applied.length > 0)
    process.stderr.write(`migrated ${redactDatabaseUrl(target)}: ${report.applied.join(", ")}\n`);
  // A command may wait its turn behind a running server's writes (asynchronously, up to a minute).
  return openDatabase(target, { lockWaitMs: 60_000 });
}

function printImport(result: ImportResult, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const { counts } = result;
  const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  const what = [
    count(counts.events, "event"),
    count(counts.calls, "call"),
    count(counts.results, "result"),
    ...(counts.deliveries > 0 ? [count(counts.deliveries, "delivery", "deliveries")] : []),
    count(counts.issues, "issue"),
  ];
  process.stdout.write(
    `${result.created ? "imported" : "already imported (nothing written)"} ${result.group_id} (${result.format}): ${what.join(", ")}\n`,
  );
  for (const issue of result.issues.slice(0, 20))
    process.stdout.write(`  issue ${issue.path || "(root)"}: ${issue.message}\n`);
  if (result.issues.length > 20) process.stdout.write(`  … and ${result.issues.length - 20} more issues\n`);
}

// ---------------------------------------------------------------- commands

type Options = {
  email?: string;
  password?: string;
  scope?: string;
  format?: string;
  "group-id"?: string;
  name?: string;
  to?: string;
  from?: string;
  out?: string;
  secret?: string;
  realtime?: boolean;
  json?: boolean;
};

async function importCommand(positionals: string[], options: Options): Promise<number> {
  const [file] = positionals;
  if (file === undefined || positionals.length > 1) throw new UsageError("import takes exactly one file");
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const format = options.format;
  if (format !== undefined && !isImportFormat(format))
    throw new UsageError(`--format must be one of ${IMPORT_FORMATS.join(", ")}`);
  const name = options.name ?? path.basename(file);
  const progress = new Progress();

  if (options.to !== undefined) {
    const url = new URL("/api/import", baseUrl(options.to, "--to"));
    if (format !== undefined) url.searchParams.set("format", format);
    if (options["group-id"] !== undefined) url.searchParams.set("group_id", options["group-id"]);
    url.searchParams.set("name", name);
    const size = fs.statSync(file).size;
    let sent = 0;
    const source = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    source.on("data", (chunk) => {
      sent += chunk.length;
      progress.update("upload", sent, size, "bytes");
    });
    // Node's fetch streams a request body only in half-duplex mode, which the DOM typings do not list.
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { "content-type": contentTypeOf(file), "content-length": String(size) },
      body: Readable.toWeb(source) as ReadableStream<Uint8Array>,
      duplex: "half",
    };
    const response = await fetch(url, init);
    const answer = await readAnswer(response);
    if (!response.ok) {
      process.stderr.write(`import failed: HTTP ${response.status} ${answer}\n`);
      return 1;
    }
    const body: unknown = JSON.parse(answer);
    process.stdout.write(options.json ? `${JSON.stringify(body, null, 2)}\n` : `HTTP ${response.status} ${answer}\n`);
    return 0;
  }

  const text = await readFileWithProgress(file, progress);
  const database = await openLocalDatabase();
  try {
    const reply = await importTranscript({
      text,
      format,
      groupId: options["group-id"],
      name,
      // The CLI runs on this machine, with direct access to the database file or URL.
      principal: { kind: "local", label: "local (cli)" },
      database,
      onProgress: (update: ImportProgress) =>
        progress.update(update.phase, update.done, update.total, update.phase === "parse" ? "lines" : "rows"),
    });
    printImport(reply.body, options.json === true);
    return 0;
  } finally {
    await database.close();
  }
}

async function exportCommand(positionals: string[], options: Options): Promise<number> {
  const [groupId] = positionals;
  if (groupId === undefined || positionals.length > 1) throw new UsageError("export takes exactly one group id");
  const out = options.out === undefined ? process.stdout : fs.createWriteStream(options.out);
  const write = (chunk: string | Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      out.write(chunk, (error) => (error ? reject(error) : resolve()));
    });

  if (options.from !== undefined) {
    const url = new URL(`/api/threads/${encodeURIComponent(groupId)}/export`, baseUrl(options.from, "--from"));
    const response = await fetch(url);
    if (!response.ok || response.body === null) {
      process.stderr.write(`export failed: HTTP ${response.status} ${await readAnswer(response)}\n`);
      return 1;
    }
    for await (const chunk of Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>))
      await write(chunk as Uint8Array);
  } else {
    const database = await openLocalDatabase();
    try {
      const { lines } = await openThreadExport({ groupId, database });
      // Lines are written in ~1 MB batches: one write (and one await) per line would dominate the run.
      let batch: string[] = [];
      let batchChars = 0;
      for await (const line of lines) {
        batch.push(line);
        batchChars += line.length;
        if (batchChars >= 1024 * 1024) {
          await write(batch.join(""));
          batch = [];
          batchChars = 0;
        }
      }
      if (batch.length > 0) await write(batch.join(""));
    } finally {
      await database.close();
    }
  }
  if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  if (options.out !== undefined) process.stderr.write(`wrote ${options.out}\n`);
  return 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function redeliverCommand(positionals: string[], options: Options): Promise<number> {
  const [file] = positionals;
  if (file === undefined || positionals.length > 1) throw new UsageError("redeliver takes exactly one export file");
  if (options.to === undefined)
    throw new UsageError("redeliver needs --to <callback-url>, e.g. --to http://localhost:3000/api/callback");
  const target = baseUrl(options.to, "--to");
  if (options.secret !== undefined && options.secret.trim() === "") throw new UsageError("--secret is empty");
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);

  const data = parseExport(readExportText(fs.readFileSync(file, "utf8")));
  const deliveries = data.deliveries;
  if (deliveries.length === 0) {
    process.stdout.write(`${file}: thread ${data.groupId} has no recorded deliveries\n`);
    return 0;
  }
  process.stdout.write(
    `re-delivering ${deliveries.length} recorded deliveries of ${data.groupId} to ${target.href}${options.realtime ? " with the original spacing" : ""}\n`,
  );
  let failures = 0;
  let previousAt: number | null = null;
  for (const [position, delivery] of deliveries.entries()) {
    const label = `[${position + 1}/${deliveries.length}] ${delivery.received_at} was ${delivery.http_status} ${delivery.outcome}`;
    if (delivery.raw_body_base64 === null || delivery.raw_body_truncated) {
      process.stdout.write(
        `${label} → skipped: ${delivery.raw_body_truncated ? "only a prefix of the body was kept" : "no body was recorded"}\n`,
      );
      continue;
    }
    const at = Date.parse(delivery.received_at);
    if (options.realtime && previousAt !== null && at > previousAt) await sleep(at - previousAt);
    previousAt = at;
    const body = Buffer.from(delivery.raw_body_base64, "base64");
    const headers: Record<string, string> = { "content-type": delivery.content_type ?? "application/json" };
    // The recorded webhook-id keeps a receiver's own id-based deduplication faithful; the timestamp is now.
    if (options.secret !== undefined)
      Object.assign(
        headers,
        signatureHeaders(options.secret, body, delivery.webhook_id ? { webhookId: delivery.webhook_id } : {}),
      );
    try {
      const response = await fetch(target, { method: "POST", headers, body });
      process.stdout.write(`${label} → ${response.status} ${await readAnswer(response)}\n`);
    } catch (error) {
      failures += 1;
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      process.stdout.write(
        `${label} → no answer (${error instanceof Error ? error.message : String(error)}${cause})\n`,
      );
    }
  }
  return failures === 0 ? 0 : 1;
}

// ---------------------------------------------------------------- main

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: "string" },
        "group-id": { type: "string" },
        name: { type: "string" },
        to: { type: "string" },
        from: { type: "string" },
        out: { type: "string" },
        secret: { type: "string" },
        realtime: { type: "boolean" },
        email: { type: "string" },
        password: { type: "string" },
        scope: { type: "string" },
        "dry-run": { type: "boolean" },
        days: { type: "string" },
        "max-bytes": { type: "string" },
        vacuum: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  switch (command) {
    case "import":
      return importCommand(rest, parsed.values);
    case "export":
      return exportCommand(rest, parsed.values);
    case "redeliver":
      return redeliverCommand(rest, parsed.values);
    case "users":
    case "keys":
      try {
        return await accessCommand(command, rest, parsed.values, openLocalDatabase);
      } catch (error) {
        if (error instanceof Error && error.name === "AccessUsageError") throw new UsageError(error.message);
        throw error;
      }
    case "prune":
      return pruneCommand(await openLocalDatabase(), parsed.values);
    case undefined:
      throw new UsageError("no command given");
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`toolscope: ${error.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
  } else if (error instanceof AppError) {
    process.stderr.write(`\ntoolscope: ${error.code}: ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof MigrationBlocked) {
    process.stderr.write(`\ntoolscope: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`\ntoolscope: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
