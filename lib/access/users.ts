// Dashboard users (exposed mode): the first admin through the one-time setup page or the CLI, the others from
// the settings page. Every user may do everything (there is one role); keys carry the scopes.
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { authFor, createUser, getAuth, type SessionUser } from "./auth.ts";
import { countUsers, findUsers } from "./repository.ts";
import type { UserView } from "./schemas.ts";
import { accessSettings, type AccessSettings } from "./settings.ts";

export async function listUsers(database?: Database): Promise<UserView[]> {
  return findUsers((database ?? (await getDatabase())).client);
}

export async function addUser(input: {
  email: string;
  password: string;
  name?: string;
  database?: Database;
  settings?: AccessSettings;
}): Promise<SessionUser> {
  const auth = input.database ? authFor(input.database, input.settings) : await getAuth();
  return createUser(auth, input);
}

/**
 * The one-time setup page's token: derived from TOOLSCOPE_SECRET, printed in the server log while no user
 * exists, so only whoever runs the server can create the first admin through the page.
 */
export function setupToken(settings: AccessSettings = accessSettings()): string | null {
  if (settings.secret === null) return null;
  return createHmac("sha256", settings.secret).update("toolscope-first-user-setup").digest("base64url").slice(0, 32);
}

/** Whether the setup page is open: exposed mode and no user yet. */
export async function setupIsOpen(database?: Database): Promise<boolean> {
  if (accessSettings().mode !== "exposed") return false;
  return (await countUsers((database ?? (await getDatabase())).client)) === 0;
}

let setupRunning: Promise<unknown> = Promise.resolve();

/** Creates the first admin; refused once any user exists or when the token is wrong. */
export async function setupFirstUser(input: {
  token: string;
  email: string;
  password: string;
  name?: string;
}): Promise<SessionUser> {
  const expected = setupToken();
  if (expected === null)
    throw new AppError(
      "not_found",
      "Setup exists only in exposed mode (TOOLSCOPE_SECRET set); local mode needs no user",
    );
  const given = Buffer.from(input.token);
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
    throw new AppError("forbidden", "Wrong setup token: open the setup link the server printed at start", {
      path: "token",
    });
  }
  // One setup at a time in this process, so two racing requests cannot both become the first admin.
  const run = setupRunning.then(async () => {
    if (!(await setupIsOpen()))
      throw new AppError(
        "conflict",
        "Setup is closed: a user exists already. Sign in, or ask an admin for an account.",
      );
    return addUser(input);
  });
  setupRunning = run.catch(() => undefined);
  return run;
}
