// A zod issue path as people write it: `messages[2].content[0].text`.
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    "",
  );
}

type Issue = { code: string; path: PropertyKey[]; message: string; errors?: Issue[][]; keys?: string[] };

/**
 * The issue to tell a person about. A union (a fork edit is one of several shapes) fails as "Invalid input"; the
 * useful answer is the failure inside the shape the input meant: the branch with no unknown key and the fewest
 * issues, with its path joined to the union's. When every branch has unknown keys, those keys are the answer.
 */
export function closestIssue(issue: Issue): Issue {
  if (issue.code !== "invalid_union" || issue.errors === undefined || issue.errors.length === 0) return issue;
  const branches = issue.errors.filter((branch) => branch.length > 0);
  const unknown = (branch: Issue[]) =>
    branch.find((inner) => inner.code === "unrecognized_keys" && inner.path.length === 0);
  const meant = branches.filter((branch) => unknown(branch) === undefined).sort((a, b) => a.length - b.length)[0];
  const chosen =
    meant?.[0] ?? (branches.every((branch) => unknown(branch) !== undefined) ? unknown(branches[0] ?? []) : undefined);
  if (chosen === undefined) return issue;
  return closestIssue({ ...chosen, path: [...issue.path, ...chosen.path] });
}
