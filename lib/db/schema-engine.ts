// Loads Prisma's schema engine compiled to WebAssembly (npm: @prisma/schema-engine-wasm) so migrations run
// offline: the Prisma CLI would download a native engine, which is impossible here.
import "server-only";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as bindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";

let ready: Promise<void> | undefined;

// Node 20 cannot import the package's entry (it imports a .wasm module), so instantiate the
// .wasm beside the JS glue ourselves, exactly as that entry would.
function loadWasm(): Promise<void> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    const glue = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = fs.readFileSync(path.join(path.dirname(glue), "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bindings });
    bindings.__wbg_set_wasm(instance.exports);
    const start = instance.exports.__wbindgen_start;
    if (typeof start === "function") start();
  })();
  return ready;
}

export type EngineLog = (line: string) => void;

export type OpenEngine = { engine: SchemaEngine; close(): Promise<void> };

/**
 * Opens the engine on a database. `engine.free()` does not close the connections the engine opened through
 * the adapter (a SQLite file would stay locked), so connections are tracked here and disposed by close().
 */
export async function openSchemaEngine(
  schemaPath: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  log: EngineLog = () => {},
): Promise<OpenEngine> {
  await loadWasm();
  const opened: SqlDriverAdapter[] = [];
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => {
      const adapter = await adapterFactory.connect();
      opened.push(adapter);
      return adapter;
    },
    connectToShadowDb: async () => {
      const adapter = await adapterFactory.connectToShadowDb();
      opened.push(adapter);
      return adapter;
    },
  };
  const schema = fs.readFileSync(schemaPath, "utf8");
  const engine = await bindings.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    log,
    bindMigrationAwareSqlAdapterFactory(tracking),
  );
  return {
    engine,
    close: async () => {
      engine.free();
      await Promise.allSettled(opened.map((adapter) => adapter.dispose()));
    },
  };
}
