// The user docs (README.md, CONTRIBUTING.md, docs/) link only to files and headings that exist, and carry no
// internal issue numbers.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCS = [
  "README.md",
  "CONTRIBUTING.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("docs", file)),
];

/** GitHub's anchor for a heading. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] ?? "")));
}

function links(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? "").filter((to) => !/^[a-z]+:/.test(to));
}

describe("user docs", () => {
  it("link to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const link of links(file)) {
        const [target = "", anchor] = link.split("#");
        const resolved = target === "" ? file : path.normalize(path.join(path.dirname(file), target));
        if (!fs.existsSync(path.join(ROOT, resolved))) broken.push(`${file}: ${link} (no file)`);
        else if (anchor !== undefined && resolved.endsWith(".md") && !anchors(resolved).has(anchor))
          broken.push(`${file}: ${link} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("carry no internal issue numbers", () => {
    const found = DOCS.flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(/\bissues? \d+|(?<![\w&])#\d+\b/gi)].map(
        (match) => `${file}: ${match[0]}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it("makes GitHub's anchors", () => {
    expect(slug("`POST /api/events` — register what the runtime did")).toBe(
      "post-apievents--register-what-the-runtime-did",
    );
    expect(slug("In the path: relay, breakpoints, answers, approvals, faults")).toBe(
      "in-the-path-relay-breakpoints-answers-approvals-faults",
    );
  });
});
