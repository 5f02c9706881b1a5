// POST /api/events – record the runtime's side of a trace: one event, or an array answered 207 per item.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { parseJsonLossless } from "../formats/lossless-json.ts";
import { readJsonBody } from "../http/body.ts";
import { jsonReply } from "../http/reply.ts";
import { recordEvents } from "./service.ts";

export const eventsEndpoint = endpoint({
  name: "POST /api/events",
  access: "ingest",
  async handle(request) {
    // Arguments posted as JSON keep their numbers' source digits (ids above 2^53 are common).
    const reply = await recordEvents(await readJsonBody(request, { parse: parseJsonLossless }));
    return jsonReply(reply.status, reply.body);
  },
});
