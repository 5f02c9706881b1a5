// Runs the local fake model provider (lib/models/fake-provider.ts) as a process, for the e2e run: all four model
// APIs on FAKE_PROVIDER_PORT, answers queued through POST /__fake/answers, the key FAKE_PROVIDER_KEY required.
import { startFakeProvider } from "../lib/models/fake-provider.ts";

const port = Number(process.env.FAKE_PROVIDER_PORT ?? 0);
const provider = await startFakeProvider({ port, host: "127.0.0.1", key: process.env.FAKE_PROVIDER_KEY ?? null });
console.log(`[fake-provider] listening on ${provider.url}`);
const stop = () => void provider.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
