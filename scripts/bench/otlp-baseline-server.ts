// The OTLP benchmark's baseline: plain node:http, the same protobuf decoding (lib/otel), and every span
// inserted durably as a row by otlp-baseline-store.ts — one transaction per request, no mapping, no framework,
// no ORM. SQLite or PostgreSQL by BENCH_DATABASE_URL. Prints "ready <port>".
import http from "node:http";
import { decodeProtobufExport } from "../../lib/otel/otlp-proto.ts";
import { openBaselineStore } from "./otlp-baseline-store.ts";

const baseline = await openBaselineStore(process.env.BENCH_DATABASE_URL ?? "file:/tmp/toolscope-otlp-baseline.db");

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    void (async () => {
      try {
        await baseline.store(decodeProtobufExport(Buffer.concat(chunks)).spans);
        res.writeHead(200, { "content-type": "application/x-protobuf" });
        res.end();
      } catch (error) {
        res.writeHead(500);
        res.end(String(error));
      }
    })();
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`ready ${typeof address === "object" && address ? address.port : 0}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
