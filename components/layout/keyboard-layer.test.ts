// The keyboard layer's dispatch order and guards, on the registry itself (no document needed).
import { describe, expect, it } from "vitest";
import { createKeyboardLayer, KEY_PRIORITY, type KeyPress } from "./keyboard-layer.ts";

/** A text field stands in as a plain EventTarget: the layer is told which targets are typing. */
const FIELD = new EventTarget();
const newLayer = (onChange?: (names: string[]) => void) => createKeyboardLayer(onChange, (target) => target === FIELD);

function press(key: string, extra: Partial<KeyPress> = {}) {
  const event = {
    key,
    shiftKey: false,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    target: null,
    defaultPrevented: false,
    prevented: 0,
    preventDefault() {
      this.prevented += 1;
      this.defaultPrevented = true;
    },
    ...extra,
  };
  return event;
}

describe("createKeyboardLayer", () => {
  it("offers a key to the highest priority first and stops at the first scope that takes it", () => {
    const layer = newLayer();
    const seen: string[] = [];
    layer.register("global", KEY_PRIORITY.global, (event) => {
      seen.push(`global:${event.key}`);
      return true;
    });
    layer.register("thread", KEY_PRIORITY.page, (event) => {
      seen.push(`thread:${event.key}`);
      return event.key === "g";
    });
    const g = press("g");
    layer.dispatch(g);
    const t = press("t");
    layer.dispatch(t);
    expect(seen).toEqual(["thread:g", "thread:t", "global:t"]);
    expect(g.prevented).toBe(1);
    expect(t.prevented).toBe(1);
  });

  it("prefers the newest scope within one priority, and forgets a scope once unregistered", () => {
    const layer = newLayer();
    const seen: string[] = [];
    const first = layer.register("first", KEY_PRIORITY.page, () => (seen.push("first"), true));
    const second = layer.register("second", KEY_PRIORITY.page, () => (seen.push("second"), true));
    layer.dispatch(press("j"));
    second();
    layer.dispatch(press("j"));
    first();
    const unheard = press("j");
    layer.dispatch(unheard);
    expect(seen).toEqual(["second", "first"]);
    expect(unheard.prevented).toBe(0);
  });

  it("leaves typed keys, modified keys and keys another listener took alone", () => {
    const layer = newLayer();
    let calls = 0;
    layer.register("thread", KEY_PRIORITY.page, () => (calls += 1) > 0);
    layer.dispatch(press("j", { target: FIELD }));
    layer.dispatch(press("j", { ctrlKey: true }));
    layer.dispatch(press("j", { metaKey: true }));
    layer.dispatch(press("j", { altKey: true }));
    layer.dispatch(press("j", { defaultPrevented: true }));
    expect(calls).toBe(0);
    const unhandled = press("q");
    layer.register("none", KEY_PRIORITY.component, () => false);
    layer.dispatch(unhandled);
    expect(calls).toBe(1);
  });

  it("reports the listening scopes on every change (the hydration marker end-to-end tests wait for)", () => {
    const reports: string[][] = [];
    const layer = newLayer((names) => reports.push(names));
    const off = layer.register("global", KEY_PRIORITY.global, () => false);
    layer.register("thread", KEY_PRIORITY.page, () => false);
    off();
    expect(reports).toEqual([["global"], ["thread", "global"], ["thread"]]);
    expect(layer.scopeNames()).toEqual(["thread"]);
  });
});
