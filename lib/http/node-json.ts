// Writes a JSON reply on a Node response (the lean server path), with the headers every route sends.
import type { ServerResponse } from "node:http";

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store", ...extraHeaders });
  res.end(text);
}
