"use client";
// The app's one keyboard layer: a single keydown listener on the document, and scoped handlers (the global
// shortcuts, the thread page, the replay page, a big diff) registered with a priority. A key goes to the
// highest-priority scope first, and the first handler that takes it ends its trip; key presses in text fields,
// in open dialogs or with a modifier held never reach a scope. The list the `?` dialog shows is ./shortcuts.ts.
//
// Why one layer: four listeners (document and window, added at different hydration moments) used to compete
// for the same keys, each guarding with `defaultPrevented`, and a key pressed while a page was hydrating went to
// whichever had attached. Now the registry is the only listener, handlers read the newest committed state
// (registered in layout effects, so before the browser can deliver the next input), and `<html data-key-scopes>`
// names the scopes that listen: end-to-end tests wait for it instead of guessing when hydration ended.
import { useLayoutEffect, useRef } from "react";
import { isTypingTarget } from "./shortcuts.ts";

/** What a scope reads of a key press (a KeyboardEvent in the app). */
export type KeyPress = Pick<
  KeyboardEvent,
  "key" | "shiftKey" | "altKey" | "ctrlKey" | "metaKey" | "target" | "defaultPrevented" | "preventDefault"
>;

/** Takes a key press (returns true: handled, default prevented, no lower scope sees it) or leaves it (false). */
export type KeyHandler = (event: KeyPress) => boolean;

/** Lower runs later: a component inside a page (a diff) over the page (the thread) over the app's global keys. */
export const KEY_PRIORITY = { global: 0, page: 10, component: 20 } as const;

type Scope = { name: string; priority: number; order: number; handle: KeyHandler };

export type KeyboardLayer = {
  register: (name: string, priority: number, handle: KeyHandler) => () => void;
  dispatch: (event: KeyPress) => void;
  scopeNames: () => string[];
};

/** A registry of scopes in dispatch order (pure: the document listener below is the only caller in the app). */
export function createKeyboardLayer(
  onChange: (names: string[]) => void = () => {},
  isTyping: (target: EventTarget | null) => boolean = isTypingTarget,
): KeyboardLayer {
  let scopes: Scope[] = [];
  let order = 0;
  const names = () => scopes.map((scope) => scope.name);
  return {
    register(name, priority, handle) {
      const scope: Scope = { name, priority, order: (order += 1), handle };
      // Highest priority first; within one priority the newest registration first (a page mounted last wins).
      scopes = [...scopes, scope].sort((a, b) => b.priority - a.priority || b.order - a.order);
      onChange(names());
      return () => {
        scopes = scopes.filter((candidate) => candidate !== scope);
        onChange(names());
      };
    },
    dispatch(event) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      for (const scope of scopes) {
        if (scope.handle(event)) {
          event.preventDefault();
          return;
        }
      }
    },
    scopeNames: names,
  };
}

let documentLayer: KeyboardLayer | null = null;

/** The document's layer, its listener attached on first use (so a scope never registers before it listens). */
function theLayer(): KeyboardLayer {
  if (documentLayer) return documentLayer;
  const layer = createKeyboardLayer((names) => {
    document.documentElement.dataset.keyScopes = [...new Set(names)].sort().join(" ");
  });
  document.addEventListener("keydown", layer.dispatch);
  documentLayer = layer;
  return layer;
}

/**
 * Registers `handle` under `name` while the component is mounted (and `enabled`). The handler may change every
 * render: the newest one is called, installed in the same commit that shows the state it reads.
 */
export function useKeyScope(name: string, priority: number, handle: KeyHandler, enabled = true): void {
  const latest = useRef(handle);
  useLayoutEffect(() => {
    latest.current = handle;
  });
  useLayoutEffect(() => {
    if (!enabled) return;
    return theLayer().register(name, priority, (event) => latest.current(event));
  }, [name, priority, enabled]);
}
