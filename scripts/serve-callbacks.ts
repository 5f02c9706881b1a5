// A Toolscope server with only the lean paths (callback, events, OTLP, relay; no Next build needed), its outbox
// dispatcher included: used by the durability tests and the ingestion and relay benchmarks. Prints "ready <port>" when
// listening (PORT=0: any free port, as the tests ask).
import { checkSettings, setting } from "../lib/config.ts";
import { getDatabase } from "../lib/db/client.ts";
import { foldAuditJournal } from "../lib/ingest/audit-journal.ts";
import { startInPathWorkers } from "../lib/server/in-path-workers.ts";
import { createToolscopeHttpServer, listen } from "../lib/server/toolscope-server.ts";
import { prepareDatabase } from "./prepare-db.ts";

checkSettings();
await prepareDatabase();
// Audit rows journaled while the database was locked or down (by this or an earlier process) go in now.
await foldAuditJournal(await getDatabase()).catch((error: unknown) =>
  console.error("[toolscope] audit journal not folded yet", error),
);
const server = createToolscopeHttpServer((_req, res) => {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: "not_found", message: "callback-only server" } }));
});
// The outbox's dispatcher and the in-path sweeps: relayed results (POST /api/relay/{name}) go out from here too.
startInPathWorkers();
const port = await listen(server, setting("PORT"), setting("HOST") ?? "127.0.0.1");
console.log(`ready ${port}`);
// Exit normally on a signal so `node --cpu-prof` can write its profile.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
