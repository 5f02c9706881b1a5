// lib/audit's request schemas and DTOs: the reveal request and answer, and the access log's rows. Client-safe.
import { z } from "zod";

/** A value a page shows masked, as its reveal panel lists it. */
export type MaskedSecret = {
  /** 12 hex digits; names the value in the masked text ("#…") and in a reveal request. */
  fingerprint: string;
  kind: string;
  /** The first 4 characters, as the masked text shows them. */
  preview: string;
};

/** Where a reveal looks for a fingerprint: one call's rows, a whole thread's, or one delivery's body. */
export type RevealScope = { kind: "call" | "thread" | "delivery"; id: string };

export const ACCESS_ACTIONS = ["reveal", "raw", "export"] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

const scopeSchema = z.strictObject({
  kind: z.enum(["call", "thread", "delivery"]),
  id: z.string().min(1).max(512),
});

export const revealRequestSchema = z.strictObject({
  fingerprint: z.string().regex(/^[0-9a-f]{12}$/, "fingerprint must be the 12 hex digits after # in a masked value"),
  /** Where to look, in order (a comparison page shows two threads). */
  scopes: z.array(scopeSchema).min(1).max(2),
});
export type RevealRequest = z.infer<typeof revealRequestSchema>;

export type AccessRecordView = {
  id: number;
  at: string;
  principal: string;
  action: string;
  target: string;
  detail: string | null;
};

export type RevealAnswer = {
  value: string;
  kind: string;
  fingerprint: string;
  /** The row the value was found in: "result:12", "call:3", "event:40", "delivery:7", "turn:2", "thread:<group>". */
  foundIn: string;
  record: AccessRecordView;
};

export const accessLogQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  target: z.string().min(1).max(600).optional(),
});
