// Finds the system Chromium: Playwright cannot download its own browser here (no network).
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      const found = execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
      if (found) return found;
    } catch {
      // not on PATH; try the next name
    }
  }
  return null;
}
