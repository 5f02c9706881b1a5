// Toolscope's production HTTP server: the lean routes (lean-routes.ts) are answered here, straight into their
// endpoints; everything else goes to Next. Both run the same endpoint objects (lib/<domain>/endpoints.ts).
import "server-only";
import http from "node:http";
import next from "next";
import { startDeadlineSweeper } from "../calls/timeouts.ts";
import { getDatabase } from "../db/client.ts";
import { serveNode } from "../http/node-adapter.ts";
import { LEAN_ROUTES, routePath } from "./lean-routes.ts";

export type ServerOptions = { port: number; host: string; dir: string };

type Fallback = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** The HTTP server: the lean routes answered here, everything else handed to `fallback` (Next, or a 404 in tests). */
export function createToolscopeHttpServer(fallback: Fallback): http.Server {
  const server = http.createServer((req, res) => {
    const rawUrl = req.url ?? "/";
    const query = rawUrl.indexOf("?");
    const table = LEAN_ROUTES.get(routePath(query === -1 ? rawUrl : rawUrl.slice(0, query)));
    if (!table) {
      fallback(req, res);
      return;
    }
    let url: URL;
    try {
      url = new URL(rawUrl, "http://toolscope.local");
    } catch {
      fallback(req, res);
      return;
    }
    // Endpoints never throw (their pipeline answers every failure); this only guards the socket itself.
    serveNode(table, req, res, url, {}).catch((error: unknown) => {
      console.error(`[toolscope] ${req.method} ${url.pathname}: could not answer`, error);
      res.destroy();
    });
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
