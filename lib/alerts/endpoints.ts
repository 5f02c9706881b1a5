// Alert rules and history over HTTP. Rules and test messages: admin; reading: read.
// GET  /api/alert-rules · POST /api/alert-rules · GET/PATCH/DELETE /api/alert-rules/{id}
// POST /api/alert-rules/{id}/test – send a test message to the rule's destinations now
// GET  /api/alerts – the alert history (?rule=, ?before=, ?limit=) · GET /api/alerts/{id}
// GET  /api/notify-destinations – the configured destinations (never their secrets)
import "server-only";
import { z } from "zod";
import { describePrincipal } from "../access/principal.ts";
import { endpoint } from "../api/endpoint.ts";
import { readJsonBody } from "../http/body.ts";
import { parseQuery, rowIdSchema } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import { parseBody } from "./parse-body.ts";
import { alertHistoryQuerySchema, alertRuleInputSchema, alertRulePatchSchema } from "./schemas.ts";
import {
  addAlertRule,
  changeAlertRule,
  getAlert,
  getAlertHistory,
  getAlertRule,
  getAlertRules,
  getNotifyDestinations,
  removeAlertRule,
  sendTestAlert,
} from "./service.ts";

type IdParams = { id: string };
const idOf = (params: IdParams) => parseQuery(z.object({ id: rowIdSchema }), params).id;

export const listAlertRulesEndpoint = endpoint({
  name: "GET /api/alert-rules",
  access: "read",
  handle: async () => jsonReply(200, { rules: await getAlertRules() }),
});

export const createAlertRuleEndpoint = endpoint({
  name: "POST /api/alert-rules",
  access: "admin",
  async handle(request, _params, { principal }) {
    const input = parseBody(alertRuleInputSchema, await readJsonBody(request));
    return jsonReply(201, await addAlertRule({ input, by: describePrincipal(principal) }));
  },
});

export const getAlertRuleEndpoint = endpoint<IdParams>({
  name: "GET /api/alert-rules/{id}",
  access: "read",
  handle: async (_request, params) => jsonReply(200, await getAlertRule(idOf(params))),
});

export const patchAlertRuleEndpoint = endpoint<IdParams>({
  name: "PATCH /api/alert-rules/{id}",
  access: "admin",
  async handle(request, params, { principal }) {
    const input = parseBody(alertRulePatchSchema, await readJsonBody(request));
    return jsonReply(200, await changeAlertRule({ id: idOf(params), input, by: describePrincipal(principal) }));
  },
});

export const deleteAlertRuleEndpoint = endpoint<IdParams>({
  name: "DELETE /api/alert-rules/{id}",
  access: "admin",
  async handle(_request, params) {
    await removeAlertRule(idOf(params));
    return jsonReply(200, { deleted: true });
  },
});

export const testAlertRuleEndpoint = endpoint<IdParams>({
  name: "POST /api/alert-rules/{id}/test",
  access: "admin",
  handle: async (_request, params, { principal }) =>
    jsonReply(202, await sendTestAlert({ id: idOf(params), by: describePrincipal(principal) })),
});

export const listAlertsEndpoint = endpoint({
  name: "GET /api/alerts",
  access: "read",
  handle: async (request) =>
    jsonReply(200, await getAlertHistory(parseQuery(alertHistoryQuerySchema, request.url.searchParams))),
});

export const getAlertEndpoint = endpoint<IdParams>({
  name: "GET /api/alerts/{id}",
  access: "read",
  handle: async (_request, params) => jsonReply(200, await getAlert(idOf(params))),
});

export const listNotifyDestinationsEndpoint = endpoint({
  name: "GET /api/notify-destinations",
  access: "read",
  handle: async () => jsonReply(200, getNotifyDestinations()),
});
