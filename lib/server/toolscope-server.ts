// Toolscope's production HTTP server: Next serves pages and API routes; POST /api/callback and
// POST /api/events take a lean path straight into the ingestion services. Next's router costs ~1 ms per request before any handler runs
// (see shared notes: ~800 req/s ceiling), which alone would cap callback throughput far below the target;
// the lean path streams the body with its size limit enforced as it arrives.
import http from "node:http";
import next from "next";
import { startDeadlineSweeper } from "../calls/timeouts.ts";
import { getDatabase } from "../db/client.ts";
import { recordEvents } from "../events/service.ts";
import { handleCallbackRequest } from "../ingest/node-callback-handler.ts";
import { serveJsonPost } from "./node-json-route.ts";

export type ServerOptions = { port: number; host: string; dir: string };

type Fallback = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * The HTTP server: the ingestion routes (POST /api/callback, POST /api/events) on the lean path, everything
 * else to `fallback` (Next, or a 404 in tests). The Next route files for both serve `next dev` with the
 * same services.
 */
export function createToolscopeHttpServer(fallback: Fallback): http.Server {
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (pathname === "/api/callback" && req.method === "POST") {
      void handleCallbackRequest(req, res);
      return;
    }
    if (pathname === "/api/events" && req.method === "POST") {
      void serveJsonPost(req, res, (body) => recordEvents(body));
      return;
    }
    fallback(req, res);
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

export async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return typeof address === "object" && address ? address.port : port;
}

export async function startToolscopeServer(options: ServerOptions): Promise<http.Server> {
  const app = next({ dev: false, dir: options.dir, hostname: options.host, port: options.port });
  await Promise.all([app.prepare(), getDatabase()]);
  const handle = app.getRequestHandler();
  const server = createToolscopeHttpServer((req, res) => void handle(req, res));
  const stopSweeper = startDeadlineSweeper(Number(process.env.TOOLSCOPE_DEADLINE_SWEEP_MS ?? 1000));
  await listen(server, options.port, options.host);
  console.log(`[toolscope] ready on http://${options.host === "0.0.0.0" ? "localhost" : options.host}:${options.port}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopSweeper();
      server.close();
      void getDatabase()
        .then((db) => db.close())
        .finally(() => process.exit(0));
    });
  }
  return server;
}
