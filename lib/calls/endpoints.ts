// Calls and results over HTTP:
// GET /api/calls/{id} – a call with its newest results analysed and its deliveries; ?view=call for the call alone
// GET /api/calls/{id}/deliveries/{deliveryId}/body – the raw bytes of one delivery to this call, exactly as received
// GET /api/results/{id}/text – a result's raw text: the exact bytes its sha256 covers; ?download=1 as an attachment
// GET /api/results/{id}/masked-text – the whole text as pages show it (secrets masked), JSON
import "server-only";
import { z } from "zod";
import { endpoint } from "../api/endpoint.ts";
import { recordAccess } from "../audit/service.ts";
import { parseQuery, rowIdSchema } from "../http/query.ts";
import { bytesReply, jsonReply } from "../http/reply.ts";
import { callQuerySchema, DELIVERY_TRUNCATED_HEADER, resultTextQuerySchema, TEXT_SHA256_HEADER } from "./schemas.ts";
import { getCallDetail, getCallInfo, getDeliveryBody, getMaskedResultText, getResultText } from "./service.ts";

// Untrusted bytes are served as inert text: never sniffed, never rendered as a document.
const INERT_TEXT = {
  "content-type": "text/plain; charset=utf-8",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
};

export const callEndpoint = endpoint<{ id: string }>({
  name: "GET /api/calls/{id}",
  access: "read",
  async handle(request, params) {
    const { id } = parseQuery(z.object({ id: rowIdSchema }), params);
    const { view } = parseQuery(callQuerySchema, request.url.searchParams);
    return jsonReply(
      200,
      view === "call" ? await getCallInfo({ callRowId: id }) : await getCallDetail({ callRowId: id }),
    );
  },
});

export const callDeliveryBodyEndpoint = endpoint<{ id: string; deliveryId: string }>({
  name: "GET /api/calls/{id}/deliveries/{deliveryId}/body",
  access: "read",
  async handle(_request, params, { principal }) {
    const { id, deliveryId } = parseQuery(z.object({ id: rowIdSchema, deliveryId: rowIdSchema }), params);
    const body = await getDeliveryBody({ callRowId: id, deliveryId });
    await recordAccess({ principal, action: "raw", target: `delivery:${deliveryId}` });
    return bytesReply(body.bytes, {
      ...INERT_TEXT,
      [DELIVERY_TRUNCATED_HEADER]: body.truncated
        ? `kept the first ${body.bytes.length} of ${body.bodyBytes} bytes`
        : "no",
    });
  },
});

export const resultTextEndpoint = endpoint<{ id: string }>({
  name: "GET /api/results/{id}/text",
  access: "read",
  async handle(request, params, { principal }) {
    const { id } = parseQuery(z.object({ id: rowIdSchema }), params);
    const { download } = parseQuery(resultTextQuerySchema, request.url.searchParams);
    const text = await getResultText({ resultId: id });
    await recordAccess({ principal, action: "raw", target: `result:${text.id}` });
    const headers: Record<string, string> = { ...INERT_TEXT, [TEXT_SHA256_HEADER]: text.sha256 };
    if (download === "1") headers["content-disposition"] = `attachment; filename="result-${text.id}.txt"`;
    return bytesReply(text.bytes, headers);
  },
});

export const maskedResultTextEndpoint = endpoint<{ id: string }>({
  name: "GET /api/results/{id}/masked-text",
  access: "read",
  async handle(_request, params) {
    const { id } = parseQuery(z.object({ id: rowIdSchema }), params);
    return jsonReply(200, await getMaskedResultText({ resultId: id }));
  },
});
