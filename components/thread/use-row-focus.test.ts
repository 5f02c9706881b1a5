// Where DOM focus goes as the current timeline row moves and its element is replaced (use-row-focus.ts), on the
// decision itself with stand-in elements: a move takes focus once rendered; a row replaced while it had focus
// gets it back from the page body; focus the reader put elsewhere stays there.
import { describe, expect, it } from "vitest";
import { createRowFocus } from "./use-row-focus.ts";

function fakeDom() {
  const body = { name: "body" };
  const state = { active: body as unknown, rendered: new Map<string, { name: string; focus: () => void }>() };
  const render = (key: string) => {
    const element = {
      name: key,
      focus: () => {
        state.active = element;
      },
    };
    state.rendered.set(key, element);
    return element;
  };
  const focus = createRowFocus({
    rowOf: (key) => state.rendered.get(key) ?? null,
    active: () => state.active,
    lost: (active) => active === null || active === body,
  });
  return { body, state, render, focus };
}

describe("createRowFocus", () => {
  it("focuses a moved-to row once it is rendered, not before", () => {
    const { state, render, focus } = fakeDom();
    focus.move("call_2999");
    expect(focus.sync()).toBe(false);
    const row = render("call_2999");
    expect(focus.sync()).toBe(true);
    expect(state.active).toBe(row);
    expect(focus.sync()).toBe(false);
  });

  it("gives focus back to the current row when its element was replaced (focus fell to the body)", () => {
    const { body, state, render, focus } = fakeDom();
    render("call_7");
    focus.move("call_7");
    focus.sync();
    // A window replaced: the old element is gone, focus is on the body, a new element has the same key.
    state.active = body;
    const replaced = render("call_7");
    expect(focus.sync()).toBe(true);
    expect(state.active).toBe(replaced);
  });

  it("a move takes focus even from a field (go to step N, Enter), once", () => {
    const { state, render, focus } = fakeDom();
    const field = { name: "go-to field" };
    state.active = field;
    const row = render("call_2400");
    focus.move("call_2400");
    expect(focus.sync()).toBe(true);
    expect(state.active).toBe(row);
  });

  it("leaves focus where the reader put it afterwards (the search field, a link inside a row)", () => {
    const { state, render, focus } = fakeDom();
    render("call_1");
    focus.move("call_1");
    focus.sync();
    const search = { name: "search" };
    state.active = search;
    expect(focus.sync()).toBe(false);
    // …and after letting go, a replaced row does not pull focus from the body either, until the next move.
    render("call_1");
    state.active = { name: "body-again" };
    expect(focus.sync()).toBe(false);
    expect(state.active).not.toBe(search);
  });

  it("selecting a row that took focus itself (a click) asks for nothing more", () => {
    const { state, render, focus } = fakeDom();
    const link = { name: "Details link in call_3" };
    render("call_3");
    state.active = link;
    focus.select("call_3");
    expect(focus.sync()).toBe(false);
    expect(state.active).toBe(link);
    expect(focus.key()).toBe("call_3");
  });
});
