// Toolscope's production HTTP server: Next serves pages and API routes; POST /api/callback takes a lean
// path straight into the ingestion service. Next's router costs ~1 ms per request before any handler runs
// (see shared notes: ~800 req/s ceiling), which alone would cap callback throughput far below the target;
// the lean path streams the body with its size limit enforced as it arrives.
import http from "node:http";
import next from "next";
import { handleCallbackRequest } from "../ingest/node-callback-handler.ts";
import { startDeadlineSweeper } from "../calls/timeouts.ts";
import { getDatabase } from "../db/client.ts";

export type ServerOptions = { port: number; host: string; dir: string };

export async function startToolscopeServer(options: ServerOptions): Promise<http.Server> {
  const app = next({ dev: false, dir: options.dir, hostname: options.host, port: options.port });
  await Promise.all([app.prepare(), getDatabase()]);
  const handle = app.getRequestHandler();

  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (pathname === "/api/callback" && req.method === "POST") {
      void handleCallbackRequest(req, res);
      return;
    }
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  const stopSweeper = startDeadlineSweeper(Number(process.env.TOOLSCOPE_DEADLINE_SWEEP_MS ?? 1000));
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  console.log(`[toolscope] ready on http://${options.host === "0.0.0.0" ? "localhost" : options.host}:${options.port}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopSweeper();
      server.close();
      void getDatabase().then((db) => db.close()).finally(() => process.exit(0));
    });
  }
  return server;
}
