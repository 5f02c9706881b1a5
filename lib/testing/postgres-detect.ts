// Which PostgreSQL server the integration tests use: TEST_DATABASE_URL, else the local server on
// 127.0.0.1:5432 when one answers. Shared by `npm test` and vitest's global set-up, so every test command
// runs the PostgreSQL half of the suite when it can, and says so loudly when it cannot.
import pg from "pg";

export const LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres";

export async function detectPostgres(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const given = env.TEST_DATABASE_URL?.trim();
  if (given) return given;
  const client = new pg.Client({ connectionString: LOCAL_POSTGRES, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return LOCAL_POSTGRES;
  } catch {
    return null;
  }
}

export function redactUrl(url: string): string {
  return url.replace(/:[^:@/]*@/, ":***@");
}

export const SKIP_BANNER = [
  "",
  "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
  "!!  PostgreSQL NOT reachable: the PostgreSQL half of the integration tests is SKIPPED.     !!",
  "!!  Start one on 127.0.0.1:5432 or set TEST_DATABASE_URL=postgresql://… to run them.      !!",
  "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
  "",
].join("\n");
