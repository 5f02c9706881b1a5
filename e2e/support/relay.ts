// The e2e run's relay target: a runtime stand-in the relay spec starts beside the app (E2E_PORT + 3, the port the
// browser-attacks spec uses too, one spec at a time), configured on the server through TOOLSCOPE_RELAYS.
const appPort = Number(process.env.E2E_PORT ?? 3210);
export const RUNTIME_PORT = appPort + 3;
export const E2E_RELAY_SECRET = "whsec_ZTJlLXJlbGF5LXNlY3JldC0wMTIzNDU2Nzg5YWJjZGVm";
export const E2E_RELAYS = [
  {
    name: "e2e-runtime",
    url: `http://127.0.0.1:${RUNTIME_PORT}/callback`,
    mode: "store-and-forward",
    secretEnv: "E2E_RELAY_SECRET",
    timeoutMs: 2000,
  },
];
