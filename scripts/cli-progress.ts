// The CLI's progress on stderr: a one-line bar on a terminal, one line per phase on a pipe.
import fs from "node:fs";
import { AppError } from "../lib/http/app-error.ts";

/** A one-line progress bar on a terminal; on a pipe, one line per phase (no carriage-return noise in logs). */
export class Progress {
  private phase = "";
  private lastDraw = 0;
  private readonly tty = process.stderr.isTTY === true;

  update(phase: string, done: number, total: number, unit: "bytes" | "lines" | "rows"): void {
    const now = Date.now();
    const finished = done >= total;
    if (phase === this.phase && !finished && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const label = `${phase.padEnd(8)} ${formatAmount(done, unit)} / ${formatAmount(total, unit)}`;
    if (this.tty) {
      const width = 28;
      const filled = Math.round(ratio * width);
      process.stderr.write(
        `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${label}\u001b[K`,
      );
      if (finished) process.stderr.write("\n");
    } else if (phase !== this.phase || finished) {
      process.stderr.write(`${label}${finished ? " done" : " …"}\n`);
    }
    this.phase = finished ? "" : phase;
  }
}

export function formatAmount(value: number, unit: "bytes" | "lines" | "rows"): string {
  if (unit !== "bytes") return `${value.toLocaleString("en-US")} ${unit}`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${(value / (1024 * 1024)).toFixed(1)} MiB`;
}

// ---------------------------------------------------------------- helpers

export async function readFileWithProgress(file: string, progress: Progress): Promise<string> {
  const size = fs.statSync(file).size;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const parts: string[] = [];
  let read = 0;
  progress.update("read", 0, size, "bytes");
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    const bytes = chunk instanceof Buffer ? chunk : Buffer.from(String(chunk));
    read += bytes.length;
    try {
      parts.push(decoder.decode(bytes, { stream: true }));
    } catch {
      throw new AppError("invalid", `${file} is not valid UTF-8 (near byte ${read})`);
    }
    progress.update("read", read, size, "bytes");
  }
  parts.push(decoder.decode());
  return parts.join("");
}
