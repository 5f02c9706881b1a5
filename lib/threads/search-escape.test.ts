// Thread search matches `%` and `_` literally (they are LIKE wildcards underneath), on both backends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { listThreads } from "./service.ts";

describe.each(testBackends())("thread search on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const groups = ["run_a", "runXa", "100%done", "1000done", "back\\slash", "backXslash"];
    await recordEvents(
      groups.map((group_id, i) => ({
        type: "tool_call",
        group_id,
        id: `c${i}`,
        name: i === 0 ? "read_file" : "readXfile",
      })),
      { database: t.database },
    );
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const search = async (q: string) =>
    (await listThreads({ query: { q }, database: t.database })).threads.map((thread) => thread.groupId).sort();

  it("treats % and _ (and \\) as ordinary characters", async () => {
    expect(await search("n_a")).toEqual(["run_a"]);
    expect(await search("0%d")).toEqual(["100%done"]);
    expect(await search("%")).toEqual(["100%done"]);
    expect(await search("k\\s")).toEqual(["back\\slash"]);
    expect(await search("read_file")).toEqual(["run_a"]);
    expect(await search("run")).toEqual(["runXa", "run_a"].sort());
  });
});
