// The ingestion benchmark baselines' HTTP side, shared by the SQLite and PostgreSQL ones: plain node:http, the
// body read whole, JSON.parse, the same zod validation as Toolscope, a small JSON reply, "ready <port>" once
// listening. `store` decides and stores one callback and returns its status (synchronously on SQLite: no
// promise where the bare limit has none). A store that throws answers 503.
import http from "node:http";
import { callbackMessageSchema } from "../../lib/ingest/schemas.ts";

type Store = (groupId: string, callKey: string, text: string) => number | Promise<number>;

const BODIES: Record<number, unknown> = {
  200: { status: "accepted" },
  404: { error: "unknown_call" },
  409: { error: "conflict" },
  503: { error: "unavailable" },
};

function reply(res: http.ServerResponse, status: number, body: unknown = BODIES[status] ?? { error: status }) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function serveBaseline(store: Store, onClose: () => Promise<void> = async () => {}): void {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let value: unknown;
      try {
        value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return reply(res, 400, { error: "malformed" });
      }
      const parsed = callbackMessageSchema.safeParse(value);
      if (!parsed.success) return reply(res, 422, { error: "invalid" });
      let status: number | Promise<number>;
      try {
        status = store(parsed.data.group_id, parsed.data.id, parsed.data.text);
      } catch {
        return reply(res, 503);
      }
      if (typeof status === "number") reply(res, status);
      else
        status.then(
          (code) => reply(res, code),
          () => reply(res, 503),
        );
    });
  });
  server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    const address = server.address();
    console.log(`ready ${typeof address === "object" && address ? address.port : 0}`);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => server.close(() => void onClose().then(() => process.exit(0))));
}
