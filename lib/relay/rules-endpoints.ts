// Breakpoints, faults, held results and the in-path audit log over HTTP. Rules and decisions: admin; reading: read.
// GET  /api/breakpoints · POST /api/breakpoints · PATCH/DELETE /api/breakpoints/{id}
// GET  /api/faults · POST /api/faults · PATCH/DELETE /api/faults/{id}
// GET  /api/held – results held now and the last decided · GET /api/held/{id}
// POST /api/held/{id}/decision – release, edit, replace with an error, or drop
// GET  /api/interventions – who changed what in the path, and when (?call=, ?group=)
// GET  /api/relays – the configured relay targets (never their secrets)
import "server-only";
import { z } from "zod";
import { describePrincipal } from "../access/principal.ts";
import { endpoint } from "../api/endpoint.ts";
import { readJsonBody } from "../http/body.ts";
import { parseQuery, rowIdSchema } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import {
  breakpointInputSchema,
  breakpointPatchSchema,
  faultInputSchema,
  faultPatchSchema,
} from "../intercept/schemas.ts";
import { decideHold, getHeld, getHeldPage } from "./holds-service.ts";
import { parseBody } from "./parse-body.ts";
import {
  addBreakpoint,
  addFault,
  changeBreakpoint,
  changeFault,
  getBreakpoints,
  getFaults,
  getInterventions,
  removeBreakpoint,
  removeFault,
} from "./rules-service.ts";
import { holdDecisionSchema } from "./schemas.ts";
import { listRelayTargets } from "./targets.ts";

type IdParams = { id: string };
const idOf = (params: IdParams) => parseQuery(z.object({ id: rowIdSchema }), params).id;

export const listBreakpointsEndpoint = endpoint({
  name: "GET /api/breakpoints",
  access: "read",
  handle: async () => jsonReply(200, { rules: await getBreakpoints() }),
});

export const createBreakpointEndpoint = endpoint({
  name: "POST /api/breakpoints",
  access: "admin",
  async handle(request, _params, { principal }) {
    const input = parseBody(breakpointInputSchema, await readJsonBody(request));
    return jsonReply(201, await addBreakpoint({ input, by: describePrincipal(principal) }));
  },
});

export const patchBreakpointEndpoint = endpoint<IdParams>({
  name: "PATCH /api/breakpoints/{id}",
  access: "admin",
  async handle(request, params, { principal }) {
    const input = parseBody(breakpointPatchSchema, await readJsonBody(request));
    return jsonReply(200, await changeBreakpoint({ id: idOf(params), input, by: describePrincipal(principal) }));
  },
});

export const deleteBreakpointEndpoint = endpoint<IdParams>({
  name: "DELETE /api/breakpoints/{id}",
  access: "admin",
  async handle(_request, params, { principal }) {
    await removeBreakpoint({ id: idOf(params), by: describePrincipal(principal) });
    return jsonReply(200, { deleted: true });
  },
});

export const listFaultsEndpoint = endpoint({
  name: "GET /api/faults",
  access: "read",
  handle: async () => jsonReply(200, { rules: await getFaults() }),
});

export const createFaultEndpoint = endpoint({
  name: "POST /api/faults",
  access: "admin",
  async handle(request, _params, { principal }) {
    const input = parseBody(faultInputSchema, await readJsonBody(request));
    return jsonReply(201, await addFault({ input, by: describePrincipal(principal) }));
  },
});

export const patchFaultEndpoint = endpoint<IdParams>({
  name: "PATCH /api/faults/{id}",
  access: "admin",
  async handle(request, params, { principal }) {
    const input = parseBody(faultPatchSchema, await readJsonBody(request));
    return jsonReply(200, await changeFault({ id: idOf(params), input, by: describePrincipal(principal) }));
  },
});

export const deleteFaultEndpoint = endpoint<IdParams>({
  name: "DELETE /api/faults/{id}",
  access: "admin",
  async handle(_request, params, { principal }) {
    await removeFault({ id: idOf(params), by: describePrincipal(principal) });
    return jsonReply(200, { deleted: true });
  },
});

const heldQuerySchema = z.object({ group: z.string().min(1).max(512).optional(), call: rowIdSchema.optional() });

export const heldEndpoint = endpoint({
  name: "GET /api/held",
  access: "read",
  async handle(request) {
    const query = parseQuery(heldQuerySchema, request.url.searchParams);
    return jsonReply(200, await getHeldPage({ groupId: query.group, toolCallId: query.call }));
  },
});

export const heldOneEndpoint = endpoint<IdParams>({
  name: "GET /api/held/{id}",
  access: "read",
  handle: async (_request, params) => jsonReply(200, await getHeld(idOf(params))),
});

export const decideHoldEndpoint = endpoint<IdParams>({
  name: "POST /api/held/{id}/decision",
  access: "admin",
  async handle(request, params, { principal }) {
    const decision = parseBody(holdDecisionSchema, await readJsonBody(request));
    return jsonReply(200, await decideHold({ id: idOf(params), decision, by: describePrincipal(principal) }));
  },
});

export const interventionsEndpoint = endpoint({
  name: "GET /api/interventions",
  access: "read",
  async handle(request) {
    const query = parseQuery(
      z.object({
        call: rowIdSchema.optional(),
        group: z.string().min(1).max(512).optional(),
        limit: z.coerce.number().int().min(1).max(500).optional(),
      }),
      request.url.searchParams,
    );
    return jsonReply(200, {
      items: await getInterventions({ toolCallId: query.call, groupId: query.group, limit: query.limit }),
    });
  },
});

export const relaysEndpoint = endpoint({
  name: "GET /api/relays",
  access: "read",
  handle: async () => jsonReply(200, listRelayTargets()),
});
