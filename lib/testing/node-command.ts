// How tests and benchmarks start a TypeScript script as its own Node process (no tsx wrapper, so signals
// reach it), with the same loader set-up as the npm scripts (scripts/register.mjs).
import path from "node:path";

export const PROJECT_DIR = process.cwd();

export function nodeScriptArgs(script: string, ...args: string[]): string[] {
  return ["--import", path.join(PROJECT_DIR, "scripts/register.mjs"), path.join(PROJECT_DIR, script), ...args];
}
