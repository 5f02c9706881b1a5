// Standard Webhooks signing and verification over raw bytes.
import { describe, expect, it } from "vitest";
import { signatureHeaders, signPayload, verifySignature } from "./webhook-signature.ts";

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const now = new Date("2026-11-22T02:00:00Z");

describe("webhook signatures", () => {
  it("matches the Standard Webhooks reference vector", () => {
    // From the Standard Webhooks specification's example.
    const signature = signPayload(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  const body = Buffer.from('{"type":"tool_result","group_id":"g","id":"c","text":"é"}');
  const headers = signatureHeaders(secret, body, { webhookId: "msg_1", now });
  const check = (
    overrides: Partial<{ id: string | null; timestamp: string | null; signature: string | null }> = {},
    b: Uint8Array = body,
    secrets = [secret],
    at = now,
  ) =>
    verifySignature({
      secrets,
      headers: {
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        ...overrides,
      },
      body: b,
      now: at,
    });

  it("accepts the signature it made", () => expect(check()).toEqual({ ok: true, webhookId: "msg_1" }));
  it("rejects a body changed by one byte", () =>
    expect(check({}, Buffer.from(body.toString().replace("é", "e")))).toMatchObject({ ok: false }));
  it("rejects stale and future timestamps beyond five minutes", () => {
    expect(check({}, body, [secret], new Date(now.getTime() + 5 * 60_000 + 1000))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("old"),
    });
    expect(check({}, body, [secret], new Date(now.getTime() - 5 * 60_000 - 1000))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("future"),
    });
    expect(check({}, body, [secret], new Date(now.getTime() + 4 * 60_000)).ok).toBe(true);
  });
  it("accepts any of several signatures and any of several secrets", () => {
    const other = "whsec_" + Buffer.from("another key").toString("base64");
    const rotated = `v1,AAAA ${headers["webhook-signature"]}`;
    expect(check({ signature: rotated }).ok).toBe(true);
    expect(check({}, body, [other, secret]).ok).toBe(true);
    expect(check({}, body, [other]).ok).toBe(false);
  });
  it("names missing headers", () =>
    expect(check({ id: null, signature: null })).toEqual({
      ok: false,
      reason: "missing signature header(s): webhook-id, webhook-signature",
    }));
});
