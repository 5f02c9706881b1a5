"use client";
// The global keyboard layer: `?` opens the list of shortcuts (components/layout/shortcuts.ts) in a modal dialog,
// "g" then a letter goes to a page. Keys typed into a field, or with a modifier held, are left alone.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { GO_TO, SHORTCUTS, type Shortcut } from "./shortcuts.ts";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, [contenteditable='true']") !== null;
}

function byScope(shortcuts: readonly Shortcut[]): [string, Shortcut[]][] {
  const groups = new Map<string, Shortcut[]>();
  for (const shortcut of shortcuts) groups.set(shortcut.scope, [...(groups.get(shortcut.scope) ?? []), shortcut]);
  return [...groups];
}

function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <span className="shortcut-keys">
      {keys.map((alternative, option) => (
        <span key={alternative}>
          {option > 0 ? <span className="muted"> or </span> : null}
          {alternative.split(" ").map((key, index) => (
            <span key={index}>
              {index > 0 ? <span className="muted"> then </span> : null}
              <kbd>{key}</kbd>
            </span>
          ))}
        </span>
      ))}
    </span>
  );
}

export function ShortcutsDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const router = useRouter();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let pendingG = 0;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (event.key === "?") {
        event.preventDefault();
        setOpen(true);
        return;
      }
      const target = GO_TO[event.key];
      if (pendingG > Date.now() && target !== undefined && !dialog.current?.open) {
        pendingG = 0;
        event.preventDefault();
        router.push(target);
        return;
      }
      pendingG = event.key === "g" ? Date.now() + 1500 : 0;
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router]);

  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog ref={dialog} className="shortcuts-dialog" aria-labelledby="shortcuts-title" onClose={() => setOpen(false)}>
      <div className="shortcuts-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      {byScope(SHORTCUTS).map(([scope, shortcuts]) => (
        <section key={scope} aria-label={scope}>
          <h3>{scope}</h3>
          <dl className="shortcuts-list">
            {shortcuts.map((shortcut) => (
              <div key={`${shortcut.keys.join(",")}-${shortcut.description}`} className="shortcuts-row">
                <dt>
                  <Keys keys={shortcut.keys} />
                </dt>
                <dd>{shortcut.description}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </dialog>
  );
}
