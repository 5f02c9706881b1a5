// JSON numbers that keep their source digits: parsing and writing JSON whose numbers a float64 cannot hold
// (integers above 2^53, 17+ significant digits), with lossless-json. Client-safe (the replay viewer uses it).
import { isLosslessNumber, isSafeNumber, LosslessNumber, parse, stringify } from "lossless-json";

/**
 * A number JSON.parse would round, kept as its source text. `JSON.stringify` writes it as the nearest float
 * (what it always did), so a caller that forgets `stringifyJsonLossless` gets a valid number, never an object.
 */
export class ExactNumber extends LosslessNumber {
  toJSON(): number {
    return Number(this.value);
  }
}

export { isLosslessNumber };

function parseNumber(text: string): number | ExactNumber {
  return isSafeNumber(text) ? Number(text) : new ExactNumber(text);
}

/**
 * How deep a JSON value may nest. JSON.parse reads a few thousand levels, but the walks after it (the lossless
 * writer, the replay's JSON tail, the page's trees) recurse once per level and overflowed the stack on a
 * 3,000-level tool argument: the replay API and page answered 500. Deeper text is not read as JSON (SyntaxError),
 * so it stays text wherever it is shown or replayed, as text JSON.parse itself cannot read already does.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * True when some number in the value (as JSON.parse read it) may have lost digits on the way. Walks the whole
 * value: a SyntaxError when it nests deeper than MAX_JSON_DEPTH.
 */
function mayHaveLostDigits(value: unknown, depth = 0): boolean {
  if (typeof value === "number") {
    if (Number.isInteger(value)) return !Number.isSafeInteger(value);
    // 16 or more significant digits: the source may have had more than a double holds.
    return value.toExponential().replace(/[-.]|e.*$/g, "").length >= 16;
  }
  if (typeof value !== "object" || value === null) return false;
  if (depth >= MAX_JSON_DEPTH) throw new SyntaxError(`JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  let lost = false;
  for (const item of Array.isArray(value) ? value : Object.values(value))
    lost = mayHaveLostDigits(item, depth + 1) || lost;
  return lost;
}

/**
 * JSON.parse, except that numbers a double cannot hold exactly come back as ExactNumber (their source digits).
 * Fast path: JSON.parse, and the slower lossless parser only when the result holds a number that may be rounded.
 * Number spelling that changes no digit (`1.10`, `1e5`) reads as the plain number, as JSON.parse reads it.
 */
export function parseJsonLossless(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!mayHaveLostDigits(value)) return value;
  return parse(text, null, parseNumber);
}

/** JSON.stringify that writes ExactNumber values with their source digits. */
export function stringifyJsonLossless(value: unknown, indent?: number): string {
  return stringify(value, undefined, indent) ?? "null";
}

/** Pretty JSON of a JSON text with every number's digits kept, or null when the text is not JSON. */
export function prettyJsonLossless(text: string): string | null {
  try {
    return stringifyJsonLossless(parseJsonLossless(text), 2);
  } catch {
    return null;
  }
}

/** Whether a JSON text holds a number JSON.parse would round (so a plain parse must not be shown as its value). */
export function hasInexactNumbers(text: string): boolean {
  try {
    return mayHaveLostDigits(JSON.parse(text));
  } catch {
    return false;
  }
}
