// Toolscope's production HTTP server: the lean routes (lean-routes.ts) are answered here, straight into their
// endpoints; everything else goes to Next. Both run the same endpoint objects (lib/<domain>/endpoints.ts).
import "server-only";
import { setting } from "../config.ts";
import http from "node:http";
import next from "next";
import { startDeadlineSweeper } from "../calls/timeouts.ts";
import { getDatabase } from "../db/client.ts";
import { intendedApiPath, miscasedApiPathError } from "../http/api-path-case.ts";
import { AppError } from "../http/app-error.ts";
import { serveNode, writeReply } from "../http/node-adapter.ts";
import { errorReply } from "../http/reply.ts";
import { foldAuditJournal } from "../ingest/audit-journal.ts";
import { startRetentionSweeper } from "../lifecycle/service.ts";
import { startInPathWorkers } from "./in-path-workers.ts";
import { LEAN_ROUTES, leanParamRoute, routePath } from "./lean-routes.ts";

/** `hosts`: the addresses to listen on (the first decides the port when `port` is 0). */
export type ServerOptions = { port: number; hosts: string[]; dir: string; onReady?: (url: string) => void };

type Fallback = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * X-Forwarded-For as Next and Better Auth read it: the TCP peer, never what the client claims. Next only fills
 * the header in when it is missing, and both the sign-in rate limit (Better Auth, per address) and the audit
 * row's `remoteAddress` on Next's routes read its first hop — a client choosing it could rotate past the limit
 * and write any address into the audit log. Toolscope trusts no X-Forwarded-* header (docs/security.md).
 */
export function setPeerAddress(req: http.IncomingMessage): void {
  const peer = req.socket.remoteAddress;
  if (peer) req.headers["x-forwarded-for"] = peer;
  else delete req.headers["x-forwarded-for"];
}

/** Whether a path's percent-escapes decode to UTF-8 (Next answers a bare 500 when a route parameter does not). */
export function pathDecodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The methods Next's routes and pages answer; Next fails every other one (TRACE, PROPFIND…) with a bare 500. */
const NEXT_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The HTTP server: the lean routes answered here, everything else handed to `fallback` (Next, or a 404 in tests). */
export function createToolscopeHttpServer(fallback: Fallback): http.Server {
  const server = http.createServer((req, res) => {
    const rawUrl = req.url ?? "/";
    const query = rawUrl.indexOf("?");
    const leanPath = routePath(query === -1 ? rawUrl : rawUrl.slice(0, query));
    const withParams = LEAN_ROUTES.has(leanPath) ? null : leanParamRoute(leanPath);
    const table = LEAN_ROUTES.get(leanPath) ?? withParams?.table;
    if (!table) {
      const path = query === -1 ? rawUrl : rawUrl.slice(0, query);
      if (!NEXT_METHODS.has(req.method ?? "GET")) {
        const allow = [...NEXT_METHODS].join(", ");
        writeReply(
          req,
          res,
          errorReply(
            new AppError("method_not_allowed", `${req.method} is not allowed here; use ${allow}`, {
              headers: { allow },
            }),
          ),
        );
        return;
      }
      if (!pathDecodes(path)) {
        writeReply(
          req,
          res,
          errorReply(
            new AppError(
              "bad_request",
              "The URL path has a percent-escape that is not UTF-8 (e.g. %ff); encode ids with encodeURIComponent",
            ),
          ),
        );
        return;
      }
      // /API/callback: Next would draw an HTML page (or, exposed, redirect to sign-in); an API client needs JSON.
      const intended = intendedApiPath(path, (lowered) => LEAN_ROUTES.has(routePath(lowered)));
      if (intended) {
        writeReply(req, res, errorReply(miscasedApiPathError(path, intended)));
        return;
      }
      setPeerAddress(req);
      fallback(req, res);
      return;
    }
    let url: URL;
    try {
      url = new URL(rawUrl, "http://toolscope.local");
    } catch {
      setPeerAddress(req);
      fallback(req, res);
      return;
    }
    // Endpoints never throw (their pipeline answers every failure); this only guards the socket itself.
    serveNode(table, req, res, url, withParams?.params ?? {}).catch((error: unknown) => {
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

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

/** Listens on every host of `hosts` with one port; an IPv6 loopback that this machine lacks is skipped. */
async function listenAll(
  fallback: Fallback,
  port: number,
  hosts: string[],
): Promise<{ servers: http.Server[]; port: number }> {
  const servers: http.Server[] = [];
  let actualPort = port;
  for (const [index, host] of hosts.entries()) {
    const server = createToolscopeHttpServer(fallback);
    try {
      actualPort = await listen(server, actualPort, host);
      servers.push(server);
    } catch (error) {
      const code = error instanceof Error && "code" in error ? error.code : null;
      if (index === 0 || (code !== "EADDRNOTAVAIL" && code !== "EAFNOSUPPORT")) throw error;
      console.warn(`[toolscope] not listening on ${host}: ${code}`);
    }
  }
  return { servers, port: actualPort };
}

export async function startToolscopeServer(options: ServerOptions): Promise<http.Server[]> {
  const first = options.hosts[0] ?? "127.0.0.1";
  const app = next({ dev: false, dir: options.dir, hostname: first, port: options.port });
  await Promise.all([app.prepare(), getDatabase()]);
  const handle = app.getRequestHandler();
  const { servers, port } = await listenAll(
    (req, res) => void handle(req, res),
    options.port,
    options.hosts.length > 0 ? options.hosts : [first],
  );
  const stopDeadlines = startDeadlineSweeper(setting("TOOLSCOPE_DEADLINE_SWEEP_MS"));
  const stopRetention = startRetentionSweeper();
  const stopInPath = startInPathWorkers();
  const stopSweeper = () => {
    stopDeadlines();
    stopRetention();
    stopInPath();
  };
  // Audit rows journaled while the database was locked or down (by an earlier process) go in now.
  void getDatabase()
    .then((db) => foldAuditJournal(db))
    .catch((error: unknown) => console.error("[toolscope] audit journal not folded yet", error));
  const url = `http://${urlHost(first)}:${port}`;
  console.log(
    `[toolscope] ready on ${url}${servers.length > 1 ? ` (also ${options.hosts.slice(1).map(urlHost).join(", ")})` : ""}`,
  );
  options.onReady?.(url);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopSweeper();
      for (const server of servers) server.close();
      void getDatabase()
        .then((db) => db.close())
        .finally(() => process.exit(0));
    });
  }
  return servers;
}
