// The e2e run's alert destinations: a webhook receiver the alerts spec starts beside the app (E2E_PORT + 4),
// configured on the server through TOOLSCOPE_NOTIFY, its signing secret in E2E_ALERTS_SECRET.
const appPort = Number(process.env.E2E_PORT ?? 3210);
export const ALERTS_RECEIVER_PORT = appPort + 4;
export const E2E_ALERTS_SECRET = "whsec_ZTJlLWFsZXJ0cy1zZWNyZXQtMDEyMzQ1Njc4OWFiY2RlZg==";
export const E2E_NOTIFY = [
  {
    name: "e2e-ops",
    url: `http://127.0.0.1:${ALERTS_RECEIVER_PORT}/callback/ops`,
    format: "webhook",
    secretEnv: "E2E_ALERTS_SECRET",
    timeoutMs: 2000,
  },
  { name: "e2e-chat", url: `http://127.0.0.1:${ALERTS_RECEIVER_PORT}/callback/chat`, format: "slack" },
];
