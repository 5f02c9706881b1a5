// The generated parts of the docs match the code: settings, the lint ranks of lib/, package.json.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIB_LAYERS } from "../../lib-layers.mjs";
import { configurationTable, dependencyTable, directoryMap, replaceBlock, staleFiles } from "./generate.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("generated docs", () => {
  it("the committed README and docs carry what `npm run docs:generate` writes", () => {
    expect(staleFiles(), "run npm run docs:generate and commit the result").toEqual([]);
  });

  it("the directory map names every lib folder once, in its lint layer", () => {
    const folders = fs
      .readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const ranked = LIB_LAYERS.flatMap((layer) => Object.keys(layer.folders));
    expect([...ranked].sort()).toEqual(folders);
    const map = directoryMap();
    for (const folder of folders) expect(map.match(new RegExp(`^ {2}${folder}/ `, "gm"))).toHaveLength(1);
    // lower layers first: http (layer 0) before forks (layer 9)
    expect(map.indexOf("  http/")).toBeLessThan(map.indexOf("  forks/"));
  });

  it("the configuration table has one row per setting", () => {
    const table = configurationTable();
    expect(table).toContain("| `TOOLSCOPE_RELAYS` |");
    expect(table).toContain("| `TOOLSCOPE_OUTBOX_LEASE_MS` | `120000` |");
  });

  it("refuses a dependency without a reason and a reason without a dependency", () => {
    expect(() => dependencyTable({ dependencies: { "left-pad": "1.3.0" }, devDependencies: {} })).toThrow(
      /no reason written for left-pad; a reason for .*, which package.json no longer has/,
    );
  });

  it("replaces only its own block and says when the markers are missing", () => {
    const text = "a\n<!-- generated:x (npm run docs:generate) -->\nold\n<!-- /generated:x -->\nb";
    expect(replaceBlock(text, "x", "new", "f.md")).toBe(
      "a\n<!-- generated:x (npm run docs:generate) -->\nnew\n<!-- /generated:x -->\nb",
    );
    expect(() => replaceBlock("a", "x", "new", "f.md")).toThrow(/f\.md: no "<!-- generated:x/);
  });
});
