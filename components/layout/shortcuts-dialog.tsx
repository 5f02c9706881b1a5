"use client";
// The global shortcuts: `?` opens the list of shortcuts (components/layout/shortcuts.ts) in a modal dialog,
// "g" then a letter goes to a page — the lowest-priority scope of the keyboard layer (./keyboard-layer.ts), so a
// page's own keys (the thread's "g" asks for a step) come first.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { KEY_PRIORITY, useKeyScope } from "./keyboard-layer.ts";
import { GO_TO, SHORTCUTS, type Shortcut } from "./shortcuts.ts";

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

  // "g" then a letter within 1.5 s: the time the first "g" was pressed, read by the next key.
  const pendingG = useRef(0);
  useKeyScope("global", KEY_PRIORITY.global, (event) => {
    if (event.key === "?") {
      setOpen(true);
      return true;
    }
    const target = GO_TO[event.key];
    if (pendingG.current > Date.now() && target !== undefined && !dialog.current?.open) {
      pendingG.current = 0;
      router.push(target);
      return true;
    }
    pendingG.current = event.key === "g" ? Date.now() + 1500 : 0;
    return false;
  });

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
