// Starts a real Toolscope callback server process (scripts/serve-callbacks.ts) for tests that need one:
// one Node process (no tsx wrapper), so SIGKILL reaches the server itself.
import { spawn, type ChildProcess } from "node:child_process";
import { nodeScriptArgs } from "./node-command.ts";

export function startCallbackServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, nodeScriptArgs("scripts/serve-callbacks.ts"), {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${output}`));
    });
  });
}
