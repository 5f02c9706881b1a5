// Access administration over HTTP (admin scope): API keys (GET/POST /api/keys, DELETE /api/keys/{id}), users
// (GET/POST /api/users), and the one-time first-user setup (POST /api/setup, public but needs the setup token).
import "server-only";
import { createKey, listKeys, revokeKey } from "../access/keys.ts";
import { describePrincipal } from "../access/principal.ts";
import { createKeySchema, createUserSchema, setupSchema } from "../access/schemas.ts";
import { addUser, listUsers, setupFirstUser } from "../access/users.ts";
import { endpoint } from "../api/endpoint.ts";
import { readJsonBody } from "../http/body.ts";
import { parseQuery, rowIdSchema } from "../http/query.ts";
import { jsonReply } from "../http/reply.ts";
import { z } from "zod";
import { parseBody } from "./parse-body.ts";

export const listKeysEndpoint = endpoint({
  name: "GET /api/keys",
  access: "admin",
  async handle() {
    return jsonReply(200, { keys: await listKeys() });
  },
});

export const createKeyEndpoint = endpoint({
  name: "POST /api/keys",
  access: "admin",
  async handle(request, _params, { principal }) {
    const input = parseBody(createKeySchema, await readJsonBody(request));
    const created = await createKey({ ...input, createdBy: describePrincipal(principal) });
    console.log(
      `[toolscope] API key ${created.id} "${created.name}" (${created.scope}) created by ${describePrincipal(principal)}`,
    );
    return jsonReply(201, created);
  },
});

export const revokeKeyEndpoint = endpoint<{ id: string }>({
  name: "DELETE /api/keys/{id}",
  access: "admin",
  async handle(_request, params, { principal }) {
    const { id } = parseQuery(z.object({ id: rowIdSchema }), params);
    const revoked = await revokeKey(id);
    console.log(`[toolscope] API key ${revoked.id} "${revoked.name}" revoked by ${describePrincipal(principal)}`);
    return jsonReply(200, revoked);
  },
});

export const listUsersEndpoint = endpoint({
  name: "GET /api/users",
  access: "admin",
  async handle() {
    return jsonReply(200, { users: await listUsers() });
  },
});

export const createUserEndpoint = endpoint({
  name: "POST /api/users",
  access: "admin",
  async handle(request, _params, { principal }) {
    const input = parseBody(createUserSchema, await readJsonBody(request));
    const user = await addUser(input);
    console.log(`[toolscope] user ${user.email} created by ${describePrincipal(principal)}`);
    return jsonReply(201, user);
  },
});

export const setupEndpoint = endpoint({
  name: "POST /api/setup",
  access: "public",
  async handle(request) {
    const input = parseBody(setupSchema, await readJsonBody(request));
    const user = await setupFirstUser(input);
    console.log(`[toolscope] first user ${user.email} created through the setup page`);
    return jsonReply(201, user);
  },
});
