// Lint rules: Next's recommended set plus the architecture's import boundaries (see STYLE.md).
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";

const serverOnly = [
  { group: ["**/lib/db/**", "@/lib/db/**"], message: "Only repositories touch the database." },
  { group: ["**/service", "**/service.ts", "**/repository", "**/repository.ts"], message: "Components receive DTO props; server code stays on the server." },
  { group: ["node:*"], message: "Components run in the browser." },
];

const config = [
  ...nextVitals,
  ...nextTypeScript,
  {
    ignores: ["node_modules/**", ".next/**", ".next-*/**", "lib/db/generated/**", "test-results/**", "playwright-report/**", "data/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { prefer: "type-imports", fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-expect-error": true, "ts-ignore": true }],
      "react/no-danger": "error",
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: serverOnly }] },
  },
  {
    // Routes and pages read through services; Prisma stays in repositories.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/repository", "**/repository.ts", "**/lib/db/**", "@/lib/db/**"], message: "Routes and pages call lib/<domain>/service." }] },
      ],
    },
  },
];

export default config;
