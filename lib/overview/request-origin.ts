// The origin the reader used to reach this server, so the first-trace curl commands work when pasted.
import { headers } from "next/headers";

export async function requestOrigin(): Promise<string> {
  const list = await headers();
  const host = list.get("x-forwarded-host") ?? list.get("host");
  // Only a plain host[:port] goes into a command the reader may paste into a shell.
  if (!host || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return "http://localhost:3000";
  const proto = list.get("x-forwarded-proto") === "https" ? "https" : "http";
  return `${proto}://${host}`;
}
