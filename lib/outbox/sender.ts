// Sends one outbox delivery over HTTP: a POST of the exact bytes with their Content-Type and the Standard
// Webhooks headers, through keep-alive agents (node:http, not fetch: undici's Request/Response cost ~100 µs a
// request, a share of a core at relay rates). Never throws: a refused connection, a timeout or a reset is an
// answer too ("no answer", with the reason).
import "server-only";
import http from "node:http";
import https from "node:https";
import { webhookHeaders } from "./sign.ts";

export type Destination = {
  /** "relay:<name>" as stored on the message. */
  id: string;
  url: string;
  secret: string | null;
  timeoutMs: number;
  maxAttempts: number;
  maxAgeMs: number;
};

export type SendOutcome = {
  /** The destination's HTTP status, or null when it gave none (connection refused, timeout, reset). */
  status: number | null;
  headers: Record<string, string>;
  /** The answer's body (at most `keepBytes` of it). */
  body: Buffer;
  error: string | null;
  startedAt: Date;
  durationMs: number;
  retryAfter: string | null;
};

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/** The largest answer body read back (pass-through hands it to the tool; attempts keep 2 KiB of it). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export function sendDelivery(options: {
  destination: Destination;
  webhookId: string;
  contentType: string;
  body: Uint8Array;
  extraHeaders?: Record<string, string>;
}): Promise<SendOutcome> {
  const { destination } = options;
  const startedAt = new Date();
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, "startedAt" | "durationMs">) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, startedAt, durationMs: Math.max(0, Math.round(performance.now() - started)) });
    };
    let url: URL;
    try {
      url = new URL(destination.url);
    } catch {
      finish({
        status: null,
        headers: {},
        body: Buffer.alloc(0),
        error: "the configured URL is not valid",
        retryAfter: null,
      });
      return;
    }
    const secure = url.protocol === "https:";
    const request = (secure ? https : http).request(
      url,
      {
        method: "POST",
        agent: secure ? agents.https : agents.http,
        headers: {
          "content-type": options.contentType,
          "content-length": String(options.body.byteLength),
          "user-agent": "Toolscope-relay",
          ...options.extraHeaders,
          ...webhookHeaders({ webhookId: options.webhookId, body: options.body, secret: destination.secret }),
        },
        timeout: destination.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
          size += chunk.length;
        });
        response.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
          finish({
            status: response.statusCode ?? null,
            headers,
            body: Buffer.concat(chunks),
            error: null,
            retryAfter: headers["retry-after"] ?? null,
          });
        });
        response.on("error", (error) =>
          finish({ status: null, headers: {}, body: Buffer.alloc(0), error: describe(error), retryAfter: null }),
        );
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${destination.timeoutMs} ms`)));
    request.on("error", (error) =>
      finish({ status: null, headers: {}, body: Buffer.alloc(0), error: describe(error), retryAfter: null }),
    );
    request.end(options.body);
  });
}

function describe(error: Error): string {
  const code = "code" in error && typeof error.code === "string" ? `${error.code}: ` : "";
  return `${code}${error.message}`.slice(0, 500);
}
