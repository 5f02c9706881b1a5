// Every keyboard shortcut the app has, as plain data (client-safe): the `?` dialog
// (components/layout/shortcuts-dialog.tsx) lists them grouped by scope, and the pages that implement them keep
// this list honest (a shortcut handled but missing here is a bug). A feature that adds a shortcut adds one line.
// `keys`: what to press, one entry per alternative; a space separates a sequence ("g o"); "Shift+E" means the
// capital letter.

export type Shortcut = { keys: readonly string[]; description: string; scope: string };

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ["?"], description: "Show this list of shortcuts", scope: "Everywhere" },
  { keys: ["Escape"], description: "Close this dialog", scope: "Everywhere" },
  {
    keys: ["g o"],
    description: "Go to the overview (on a thread page, g asks for a step instead)",
    scope: "Everywhere",
  },
  { keys: ["g t"], description: "Go to threads", scope: "Everywhere" },
  { keys: ["g c"], description: "Go to calls", scope: "Everywhere" },
  { keys: ["g p"], description: "Go to pending calls", scope: "Everywhere" },
  { keys: ["g d"], description: "Go to deliveries", scope: "Everywhere" },
  { keys: ["g i"], description: "Go to insights", scope: "Everywhere" },
  { keys: ["j", "↓"], description: "Next row", scope: "Thread" },
  { keys: ["k", "↑"], description: "Previous row", scope: "Thread" },
  { keys: ["Enter"], description: "Open the focused call", scope: "Thread" },
  { keys: ["x"], description: "Expand or collapse the focused row", scope: "Thread" },
  { keys: ["e", "Shift+E"], description: "Next / previous error", scope: "Thread" },
  { keys: ["p", "Shift+P"], description: "Next / previous pending call", scope: "Thread" },
  { keys: ["c", "Shift+C"], description: "Next / previous low-confidence result", scope: "Thread" },
  { keys: ["n", "Shift+N"], description: "Next / previous search or filter match", scope: "Thread" },
  { keys: ["/"], description: "Search in the thread", scope: "Thread" },
  { keys: ["g"], description: "Go to a step number or call id", scope: "Thread" },
  { keys: ["w"], description: "Switch between rows and the waterfall", scope: "Thread" },
  { keys: ["Home"], description: "First row of the thread", scope: "Thread" },
  { keys: ["End"], description: "Last row of the thread", scope: "Thread" },
  { keys: ["←", "→"], description: "Previous / next step", scope: "Replay" },
  { keys: ["Home", "End"], description: "First / last step", scope: "Replay" },
  { keys: ["]", "["], description: "Next / previous hunk", scope: "Diff" },
];

/** Where each global "g x" sequence goes (the Everywhere lines above). */
export const GO_TO: Readonly<Record<string, string>> = {
  o: "/",
  t: "/threads",
  c: "/calls",
  p: "/pending",
  d: "/deliveries",
  i: "/insights",
};

/** True when a key press belongs to a text field or an open dialog, not to the page's shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return true;
  return target.closest("dialog[open], [role=dialog]") !== null;
}
