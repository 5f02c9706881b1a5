// npm run toolscope -- users … | keys …: access administration straight on the database (no server needed).
import { createKey, listKeys, revokeKey } from "../lib/access/keys.ts";
import { KEY_SCOPES, type KeyScope } from "../lib/access/schemas.ts";
import { accessSettings } from "../lib/access/settings.ts";
import { addUser, listUsers } from "../lib/access/users.ts";
import type { Database } from "../lib/db/client.ts";

class AccessUsageError extends Error {
  override name = "AccessUsageError";
}

type AccessOptions = { email?: string; password?: string; name?: string; scope?: string };

function isScope(value: string): value is KeyScope {
  return KEY_SCOPES.some((scope) => scope === value);
}

async function usersCommand(action: string | undefined, options: AccessOptions, database: Database): Promise<number> {
  if (action === "list") {
    for (const user of await listUsers(database))
      process.stdout.write(`${user.email}\t${user.name}\tcreated ${user.createdAt}\n`);
    return 0;
  }
  if (!options.email || !options.password) throw new AccessUsageError("users create needs --email and --password");
  const user = await addUser({ email: options.email, password: options.password, name: options.name, database });
  process.stdout.write(`created user ${user.email}\n`);
  return 0;
}

async function keysCommand(
  action: string | undefined,
  positionals: string[],
  options: AccessOptions,
  database: Database,
): Promise<number> {
  switch (action) {
    case "create": {
      if (!options.name?.trim() || !options.scope || !isScope(options.scope))
        throw new AccessUsageError("keys create needs --name and --scope");
      const key = await createKey({ name: options.name.trim(), scope: options.scope, createdBy: "cli", database });
      process.stdout.write(`created ${key.scope} key ${key.id} "${key.name}"; it is shown only now:\n${key.key}\n`);
      return 0;
    }
    case "list":
      for (const key of await listKeys(database)) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : `last used ${key.lastUsedAt ?? "never"}`;
        process.stdout.write(`${key.id}\t${key.name}\t${key.scope}\t${key.prefix}…\t${state}\n`);
      }
      return 0;
    case "revoke": {
      const key = await revokeKey(Number(positionals[0]), database);
      process.stdout.write(`revoked key ${key.id} "${key.name}"\n`);
      return 0;
    }
    default:
      throw new AccessUsageError('keys takes "create", "list" or "revoke"');
  }
}

/** Usage errors are found before the database is opened (and migrated). */
function checkUsage(
  command: "users" | "keys",
  action: string | undefined,
  positionals: string[],
  options: AccessOptions,
): void {
  if (command === "users") {
    if (action !== "create" && action !== "list") throw new AccessUsageError('users takes "create" or "list"');
    if (action === "create" && (!options.email || !options.password))
      throw new AccessUsageError("users create needs --email and --password");
    if (action === "create" && accessSettings().mode !== "exposed") {
      throw new AccessUsageError(
        "users exist only in exposed mode: set TOOLSCOPE_SECRET (32+ characters) for this command and the server",
      );
    }
    return;
  }
  if (action === "create" && !options.name?.trim()) throw new AccessUsageError("keys create needs --name");
  if (action === "create" && (!options.scope || !isScope(options.scope)))
    throw new AccessUsageError(`keys create needs --scope ${KEY_SCOPES.join("|")}`);
  if (action === "revoke" && !/^[1-9][0-9]{0,9}$/.test(positionals[0] ?? ""))
    throw new AccessUsageError("keys revoke needs the key's id (see keys list)");
  if (action !== "create" && action !== "list" && action !== "revoke")
    throw new AccessUsageError('keys takes "create", "list" or "revoke"');
}

export async function accessCommand(
  command: "users" | "keys",
  positionals: string[],
  options: AccessOptions,
  open: () => Promise<Database>,
): Promise<number> {
  const [action, ...rest] = positionals;
  checkUsage(command, action, rest, options);
  const database = await open();
  try {
    return command === "users"
      ? await usersCommand(action, options, database)
      : await keysCommand(action, rest, options, database);
  } finally {
    await database.close();
  }
}
