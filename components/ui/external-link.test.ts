// ExternalLink is the one gate between an untrusted URL and a live link: only absolute http(s) becomes an <a>.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ExternalLink } from "./external-link.tsx";

const render = (url: string, children?: string) =>
  renderToStaticMarkup(createElement(ExternalLink, { url, className: "mono" }, children));

describe("ExternalLink", () => {
  it("links an https URL in a new tab without referrer or opener", () => {
    expect(render("https://example.com/a?b=1")).toBe(
      '<a href="https://example.com/a?b=1" target="_blank" rel="noreferrer noopener" class="mono">https://example.com/a?b=1</a>',
    );
  });

  it.each(["javascript:alert(1)", "data:text/html,<script>x</script>", "/api/results/1", "ftp://host/x", ""])(
    "shows %j as inert text",
    (url) => {
      const html = render(url);
      expect(html).not.toContain("<a");
      expect(html).not.toContain("href");
      expect(html.startsWith('<span class="mono" data-inert-link="">')).toBe(true);
    },
  );

  it("masks a secret-looking string in the text it shows, and reads the children when given", () => {
    const token = "sk-ant-api03-" + "a".repeat(40);
    expect(render(`https://example.com/?key=${token}`)).not.toContain(`>https://example.com/?key=${token}<`);
    expect(render("https://example.com/", "the docs")).toContain(">the docs</a>");
  });
});
