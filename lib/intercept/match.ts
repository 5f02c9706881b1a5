// Which breakpoint holds a relayed result and which faults touch it. Pure: the rules are rows read inside the
// delivery's own transaction (repository.ts), the facts come from the result's analysis.
import type { FaultAction, RuleScope } from "./schemas.ts";

export type ResultFacts = {
  relay: string;
  groupId: string;
  toolName: string | null;
  text: string;
  isError: boolean;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
};

export type BreakpointRule = RuleScope & {
  id: number;
  name: string;
  textContains: string | null;
  confidenceBelow: number | null;
  successFalse: boolean;
  errorOnly: boolean;
  nextAction: string | null;
  timeoutMs: number;
  onTimeout: string;
};

export type FaultRule = RuleScope & {
  id: number;
  name: string;
  action: FaultAction;
  probability: number;
  delayMs: number | null;
  errorText: string | null;
};

/** `*` matches any run of characters; everything else literally (the pattern is a user's text, not a regex). */
export function wildcardMatches(pattern: string, value: string): boolean {
  if (!pattern.includes("*")) return pattern === value;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s").test(value);
}

function inScope(rule: RuleScope, facts: ResultFacts): boolean {
  if (rule.relay !== null && rule.relay !== facts.relay) return false;
  if (rule.toolName !== null && (facts.toolName === null || !wildcardMatches(rule.toolName, facts.toolName)))
    return false;
  if (rule.groupPattern !== null && !wildcardMatches(rule.groupPattern, facts.groupId)) return false;
  return true;
}

/** Every condition a rule sets must hold (a rule with none holds every result in its scope). */
export function breakpointMatches(rule: BreakpointRule, facts: ResultFacts): boolean {
  if (!inScope(rule, facts)) return false;
  if (rule.textContains !== null && !facts.text.toLowerCase().includes(rule.textContains.toLowerCase())) return false;
  if (rule.confidenceBelow !== null && !(facts.confidence !== null && facts.confidence < rule.confidenceBelow))
    return false;
  if (rule.successFalse && facts.success !== false) return false;
  if (rule.errorOnly && !facts.isError) return false;
  if (rule.nextAction !== null && facts.nextAction !== rule.nextAction) return false;
  return true;
}

/** The first matching breakpoint (rules in id order), or null. */
export function findBreakpoint(rules: readonly BreakpointRule[], facts: ResultFacts): BreakpointRule | null {
  return rules.find((rule) => breakpointMatches(rule, facts)) ?? null;
}

/** The faults that strike this result: each matching rule fires with its probability. */
export function strikingFaults(
  rules: readonly FaultRule[],
  facts: ResultFacts,
  random: () => number = Math.random,
): FaultRule[] {
  return rules.filter((rule) => inScope(rule, facts) && random() < rule.probability);
}

/** The tool_result message a tool would have posted, with `text` replaced: the body an error or edit delivers. */
export function withText(body: Uint8Array, text: string, displayAs?: unknown): Buffer {
  const message: unknown = JSON.parse(Buffer.from(body).toString("utf8"));
  if (typeof message !== "object" || message === null || Array.isArray(message))
    throw new Error("the relayed body is not a JSON object");
  const next: Record<string, unknown> = { ...message, text };
  if (displayAs !== undefined) {
    if (displayAs === null) delete next.display_as;
    else next.display_as = displayAs;
  }
  return Buffer.from(JSON.stringify(next), "utf8");
}

export function faultErrorText(rule: Pick<FaultRule, "name" | "errorText">): string {
  return (
    rule.errorText ?? `Error: injected fault "${rule.name}" (Toolscope fault rule): the tool's result was replaced`
  );
}
