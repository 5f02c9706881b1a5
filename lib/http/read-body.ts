// Reads a request body with the size limit enforced while it streams in: an oversized body is cut off at
// the limit (its prefix kept for the audit log) instead of being buffered whole.
import type { IncomingMessage } from "node:http";
import type { BodyReservation } from "./inflight.ts";

export type BodyRead = { body: Buffer; receivedBytes: number; tooLarge: boolean };

/** The client went away before its body was complete: nothing to answer, one log line, no stack. */
export class RequestAborted extends Error {
  constructor(readonly receivedBytes: number) {
    super(`client closed the request after ${receivedBytes} bytes`);
    this.name = "RequestAborted";
  }
}

export function declaredLength(value: string | null | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  return Number(value);
}

/** Node request (the lean server path). */
export function readNodeBody(req: IncomingMessage, limit: number, reservation?: BodyReservation): Promise<BodyRead> {
  const declared = declaredLength(req.headers["content-length"]);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (read: BodyRead) => {
      if (done) return;
      done = true;
      resolve(read);
    };
    if (declared !== null && declared > limit) {
      // Refuse before reading: stop the upload, keep nothing but the declared size.
      req.pause();
      finish({ body: Buffer.alloc(0), receivedBytes: declared, tooLarge: true });
      return;
    }
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      try {
        reservation?.reserve(chunk.length);
      } catch (error) {
        // Over the in-flight cap: stop reading; the 503 closes the connection (its body was not read).
        done = true;
        req.pause();
        reject(error);
        return;
      }
      received += chunk.length;
      if (received > limit) {
        const kept = Buffer.concat(chunks);
        req.pause();
        finish({ body: kept, receivedBytes: received, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () =>
      finish({
        body: chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks),
        receivedBytes: received,
        tooLarge: false,
      }),
    );
    const abort = () => {
      if (done) return;
      done = true;
      reject(new RequestAborted(received));
    };
    req.on("error", abort);
    req.on("close", () => {
      if (!req.complete) abort();
    });
  });
}

/** Web Request (the Next route, used by `next dev`). */
export async function readWebBody(request: Request, limit: number, reservation?: BodyReservation): Promise<BodyRead> {
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== null && declared > limit) {
    await request.body?.cancel();
    return { body: Buffer.alloc(0), receivedBytes: declared, tooLarge: true };
  }
  if (!request.body) return { body: Buffer.alloc(0), receivedBytes: 0, tooLarge: false };
  const reader = request.body.getReader();
  const chunks: Buffer[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new RequestAborted(received);
    });
    if (done) break;
    try {
      reservation?.reserve(value.byteLength);
    } catch (error) {
      await reader.cancel();
      throw error;
    }
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel();
      return { body: Buffer.concat(chunks), receivedBytes: received, tooLarge: true };
    }
    chunks.push(Buffer.from(value));
  }
  return { body: Buffer.concat(chunks), receivedBytes: received, tooLarge: false };
}
