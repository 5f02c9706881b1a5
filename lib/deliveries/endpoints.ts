// The callback audit log over HTTP:
// GET /api/deliveries?outcome=&group=&cursor=&limit= – one page, newest first
// GET /api/deliveries/{id}/body – one delivery's stored body as UTF-8 text (JSON), for the raw view
// GET /api/deliveries/{id}/raw – the exact stored bytes, as a download (never rendered by the browser)
import "server-only";
import { z } from "zod";
import { endpoint } from "../api/endpoint.ts";
import { recordAccess } from "../audit/service.ts";
import { parseQuery, rowIdSchema } from "../http/query.ts";
import { bytesReply, jsonReply } from "../http/reply.ts";
import { getDeliveryBody, getDeliveryRawBytes, listDeliveries, parseDeliveryQuery } from "./service.ts";

const idParams = z.object({ id: rowIdSchema });

export const listDeliveriesEndpoint = endpoint({
  name: "GET /api/deliveries",
  access: "read",
  async handle(request) {
    const { query } = parseDeliveryQuery(Object.fromEntries(request.url.searchParams), "strict");
    return jsonReply(200, await listDeliveries({ query }));
  },
});

export const deliveryBodyEndpoint = endpoint<{ id: string }>({
  name: "GET /api/deliveries/{id}/body",
  access: "read",
  async handle(_request, params) {
    const { id } = parseQuery(idParams, params);
    return jsonReply(200, await getDeliveryBody({ id }));
  },
});

export const deliveryRawEndpoint = endpoint<{ id: string }>({
  name: "GET /api/deliveries/{id}/raw",
  access: "read",
  async handle(_request, params, { principal }) {
    const { id } = parseQuery(idParams, params);
    const raw = await getDeliveryRawBytes({ id });
    await recordAccess({ principal, action: "raw", target: `delivery:${id}` });
    return bytesReply(raw.bytes, {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${raw.filename}"`,
      "x-content-type-options": "nosniff",
    });
  },
});
