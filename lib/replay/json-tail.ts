// The end of a request's pretty JSON without writing all of it: the replay page shows the last 100,000 characters,
// and writing a 100k-call history whole took most of a second (issue 13). Exactly the characters
// stringifyRequest(value, 2) ends with.
import { stringifyJsonLossless } from "../formats/lossless-json";

const INDENT = "  ";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

type Tail = { text: string; complete: boolean };

// A value the walk does not open (a primitive, an ExactNumber, anything with toJSON) written whole at `depth`:
// pretty JSON only has line breaks between items, so indenting every line break places it.
function whole(value: unknown, depth: number): string {
  const text = stringifyJsonLossless(value, 2);
  return depth === 0 ? text : text.replaceAll("\n", `\n${INDENT.repeat(depth)}`);
}

function containerTail(
  open: string,
  close: string,
  items: [string | null, unknown][],
  depth: number,
  need: number,
): Tail {
  const inner = INDENT.repeat(depth + 1);
  let text = `\n${INDENT.repeat(depth)}${close}`;
  for (let i = items.length - 1; i >= 0; i--) {
    const [key, value] = items[i] ?? [null, null];
    const label = key === null ? "" : `${JSON.stringify(key)}: `;
    const separator = i === items.length - 1 ? "" : ",\n";
    const item = tail(value, depth + 1, need - text.length - separator.length);
    if (!item.complete) return { text: item.text + separator + text, complete: false };
    text = `${inner}${label}${item.text}${separator}${text}`;
    // Every item starts a line: cutting here keeps whole lines.
    if (text.length >= need && i > 0) return { text, complete: false };
  }
  return { text: `${open}\n${text}`, complete: true };
}

function tail(value: unknown, depth: number, need: number): Tail {
  if (Array.isArray(value)) {
    if (value.length === 0) return { text: "[]", complete: true };
    return containerTail(
      "[",
      "]",
      value.map((item) => [null, item === undefined ? null : item]),
      depth,
      need,
    );
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== "function");
    if (entries.length === 0) return { text: "{}", complete: true };
    return containerTail("{", "}", entries, depth, need);
  }
  return { text: whole(value, depth), complete: true };
}

/**
 * The last lines of stringifyRequest(value, 2), at least `minChars` characters of them when the JSON is longer
 * (`complete` false: the text starts at a line start somewhere inside), else the whole JSON (`complete` true).
 */
export function jsonTail(value: unknown, minChars: number): Tail {
  return tail(value, 0, minChars);
}
