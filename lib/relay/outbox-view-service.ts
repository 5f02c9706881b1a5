// The outbox as the pages show it: masked (tool output leaves the server with secrets masked).
import "server-only";
import { maskDto } from "../audit/mask.ts";
import type { OutboxPage, OutboxQuery } from "../outbox/schemas.ts";
import { listOutbox as listOutboxRows } from "../outbox/service.ts";

export async function listOutbox(query: OutboxQuery): Promise<OutboxPage> {
  return maskDto(await listOutboxRows(query)).value;
}
