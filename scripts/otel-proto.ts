// npm run otel:proto: writes lib/otel/proto/trace-descriptor.ts from the vendored .proto files.
import fs from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { compileTraceDescriptor, descriptorModule, DESCRIPTOR_FILE } from "../lib/otel/proto/compile.ts";

fs.writeFileSync(DESCRIPTOR_FILE, descriptorModule(compileTraceDescriptor()));
execFileSync(process.execPath, [path.resolve("node_modules/prettier/bin/prettier.cjs"), "--write", DESCRIPTOR_FILE], {
  stdio: "inherit",
});
console.log(`wrote ${path.relative(process.cwd(), DESCRIPTOR_FILE)}`);
