// The parts of the docs that are generated from the code, so they cannot drift: the README's configuration table
// (lib/config-settings.ts), the directory map (lib-layers.mjs, the lint ranks) and the dependency table
// (package.json + scripts/docs/dependencies.ts). Each sits between `<!-- generated:NAME -->` and
// `<!-- /generated:NAME -->` in its file. `npm run docs:generate` rewrites them; `-- --check` only says which differ
// (scripts/docs/generate.test.ts runs the same check).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SETTING_GROUPS, SETTINGS, type SettingGroup } from "../../lib/config-settings.ts";
import { LIB_LAYERS } from "../../lib-layers.mjs";
import { DEPENDENCY_REASONS } from "./dependencies.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The configuration table, by group, in declaration order. Links are relative to the README. */
export function configurationTable(): string {
  const rows = ["| variable | default | meaning |", "|---|---|---|"];
  for (const group of Object.keys(SETTING_GROUPS) as SettingGroup[]) {
    rows.push(`| **${SETTING_GROUPS[group]}** | | |`);
    for (const [name, spec] of Object.entries(SETTINGS)) {
      if (spec.group === group) rows.push(`| \`${name}\` | ${spec.shown} | ${spec.doc} |`);
    }
  }
  return rows.join("\n");
}

/** Top-level folders outside lib/, in the order the map shows them. */
const OTHER_FOLDERS: [string, string][] = [
  ["app/", "routes and pages only (route files are one nextRoutes({...}) line)"],
  ["components/", 'React components ("use client" leaves get DTO props)'],
  ["prisma/", "models.prisma (the source), generated provider schemas, migrations per provider"],
  ["public/", "icons, web manifest, robots.txt, the docs' screenshots (served as is)"],
  ["e2e/", "Playwright specs and their support"],
  ["scripts/", "start, migrate, the CLI, test runner, benchmarks (results in scripts/bench/results/), docs generator"],
  ["docs/", "the user documentation"],
];

/** The directory map: lib/ folders by layer, lowest first, as the lint ranks them. */
export function directoryMap(): string {
  const width = 22;
  const line = (name: string, text: string) => `${name.padEnd(width)}${text}`;
  const lines = ["```"];
  for (const [name, text] of OTHER_FOLDERS.slice(0, 2)) lines.push(line(name, text));
  lines.push(line("lib/", "server code in ranked layers: a folder imports only from layers above it in this list"));
  lines.push(line("  config.ts", "every setting, read through setting() (config-settings.ts declares them)"));
  LIB_LAYERS.forEach((layer, rank) => {
    lines.push(`  — layer ${rank}: ${layer.note}`);
    for (const [folder, text] of Object.entries(layer.folders)) lines.push(line(`  ${folder}/`, text));
  });
  for (const [name, text] of OTHER_FOLDERS.slice(2)) lines.push(line(name, text));
  lines.push("```");
  return lines.join("\n");
}

type PackageJson = { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** Why each dependency is there. Throws naming a package with no reason, or a reason with no package. */
export function dependencyTable(pkg: PackageJson = readPackage()): string {
  const all = { ...pkg.dependencies, ...pkg.devDependencies };
  const missing = Object.keys(all).filter((name) => !(name in DEPENDENCY_REASONS));
  const stale = Object.keys(DEPENDENCY_REASONS).filter((name) => !(name in all));
  if (missing.length > 0 || stale.length > 0)
    throw new Error(
      [
        missing.length > 0 ? `no reason written for ${missing.join(", ")}` : "",
        stale.length > 0 ? `a reason for ${stale.join(", ")}, which package.json no longer has` : "",
      ]
        .filter(Boolean)
        .join("; ") + " (scripts/docs/dependencies.ts)",
    );
  const rows = ["| package | version | why |", "|---|---|---|"];
  for (const [section, deps] of [
    ["runtime", pkg.dependencies],
    ["development and tests", pkg.devDependencies],
  ] as const) {
    rows.push(`| **${section}** | | |`);
    for (const name of Object.keys(deps).sort())
      rows.push(`| \`${name}\` | ${deps[name]} | ${(DEPENDENCY_REASONS[name] ?? "").replace(/^dev: /, "")} |`);
  }
  return rows.join("\n");
}

function readPackage(): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as PackageJson;
}

export const GENERATED = [
  { file: "README.md", name: "configuration", render: configurationTable },
  { file: "docs/architecture.md", name: "directory-map", render: directoryMap },
  { file: "docs/architecture.md", name: "dependencies", render: dependencyTable },
] as const;

/** `text` with the block NAME replaced by `content`; throws when the markers are missing. */
export function replaceBlock(text: string, name: string, content: string, file: string): string {
  const open = `<!-- generated:${name} (npm run docs:generate) -->`;
  const close = `<!-- /generated:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${file}: no "${open}" … "${close}" block`);
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`;
}

/** Every generated file as it should be: path → text. */
export function generatedFiles(root: string = ROOT): Map<string, string> {
  const files = new Map<string, string>();
  for (const block of GENERATED) {
    const current = files.get(block.file) ?? fs.readFileSync(path.join(root, block.file), "utf8");
    files.set(block.file, replaceBlock(current, block.name, block.render(), block.file));
  }
  return files;
}

/** The files whose committed text differs from what the code says. */
export function staleFiles(root: string = ROOT): string[] {
  return [...generatedFiles(root)]
    .filter(([file, text]) => fs.readFileSync(path.join(root, file), "utf8") !== text)
    .map(([file]) => file);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes("--check")) {
    const stale = staleFiles();
    if (stale.length > 0) {
      console.error(`out of date (run npm run docs:generate): ${stale.join(", ")}`);
      process.exit(1);
    }
    console.log("generated docs are current");
  } else {
    for (const [file, text] of generatedFiles()) fs.writeFileSync(path.join(ROOT, file), text);
    console.log(`wrote ${GENERATED.map((block) => `${block.file} (${block.name})`).join(", ")}`);
  }
}
