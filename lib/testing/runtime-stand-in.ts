// A runtime stand-in for in-path tests and benchmarks: an HTTP server that takes the relayed POSTs as a runtime's
// callback_url would, records each (headers, exact body), answers as told, and can go away and come back on the
// same port (a runtime restart).
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ReceivedDelivery = { path: string; headers: http.IncomingHttpHeaders; body: Buffer; at: number };
export type StandInAnswer = { status: number; body?: string; headers?: Record<string, string> };

export class RuntimeStandIn {
  readonly received: ReceivedDelivery[] = [];
  answer: (delivery: ReceivedDelivery) => StandInAnswer = () => ({ status: 200, body: '{"ok":true}' });
  private server: http.Server | null = null;
  private sockets = new Set<Socket>();
  port = 0;
  private waiters: (() => void)[] = [];

  async start(port = 0): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const delivery = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
        this.received.push(delivery);
        for (const wake of this.waiters.splice(0)) wake();
        const answer = this.answer(delivery);
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(answer.body ?? "");
      });
    });
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(port || this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  /** Goes away: refuses connections (and drops kept-alive ones) until start() again on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `predicate` holds for what was received (checked on each arrival), or rejects after `timeoutMs`. */
  async waitFor(predicate: (received: ReceivedDelivery[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`the runtime stand-in did not receive what was expected (${this.received.length} received)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The parsed bodies received, first arrival of each webhook-id only (the runtime deduplicates). */
  uniqueMessages(): { webhookId: string; message: Record<string, unknown> }[] {
    const seen = new Set<string>();
    const out: { webhookId: string; message: Record<string, unknown> }[] = [];
    for (const delivery of this.received) {
      const id = String(delivery.headers["webhook-id"] ?? "");
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ webhookId: id, message: JSON.parse(delivery.body.toString("utf8")) as Record<string, unknown> });
    }
    return out;
  }
}
