// The keyboard layer's hydration marker (components/layout/keyboard-layer.ts): `<html data-key-scopes>` names the
// scopes listening for keys. A spec that presses a shortcut waits for its scope first — a key pressed before the
// page hydrated would be lost, and no retry loop or timeout is needed to know when it has.
import { expect, type Page } from "@playwright/test";

export type KeyScope = "global" | "thread" | "replay" | "diff";

export async function keysReady(page: Page, scope: KeyScope): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("data-key-scopes", new RegExp(`(^| )${scope}( |$)`));
}
