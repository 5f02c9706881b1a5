// The exposed-mode Toolscope the e2e run starts beside the local one (playwright.config.ts): its secret, its URL,
// and the one-time setup token the server prints (derived from the secret as lib/access/users.ts does).
import { createHmac } from "node:crypto";

export const EXPOSED_SECRET = "e2e-exposed-mode-secret-0123456789abcdef";
export const EXPOSED_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`;
export const EXPOSED_SETUP_TOKEN = createHmac("sha256", EXPOSED_SECRET)
  .update("toolscope-first-user-setup")
  .digest("base64url")
  .slice(0, 32);
