// POST /api/events – record the runtime's side of a trace: one event, or an array answered 207 per item.
import "server-only";
import { endpoint } from "../api/endpoint.ts";
import { readJsonBody } from "../http/body.ts";
import { jsonReply } from "../http/reply.ts";
import { recordEvents } from "./service.ts";

export const eventsEndpoint = endpoint({
  name: "POST /api/events",
  access: "ingest",
  async handle(request) {
    const reply = await recordEvents(await readJsonBody(request));
    return jsonReply(reply.status, reply.body);
  },
});
