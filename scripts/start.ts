// npm start: first makes sure the Prisma clients were generated from the current schema (scripts/prisma-clients.ts),
// then loads and runs the server (scripts/start-server.ts) — loaded only now, so it imports the clients as they are.
import { ensurePrismaClients } from "./prisma-clients.ts";

ensurePrismaClients(process.cwd());
await import("./start-server.ts");
