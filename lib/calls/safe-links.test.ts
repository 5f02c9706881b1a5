// Only http(s) links become clickable; only allow-listed media types become images or audio.
import { describe, expect, it } from "vitest";
import { audioDataUrl, base64ByteLength, imageDataUrl, safeHttpUrl } from "./safe-links.ts";

describe("safeHttpUrl", () => {
  it.each([
    ["https://example.com/a?b=1", "https://example.com/a?b=1"],
    ["http://example.com", "http://example.com/"],
    ["  https://example.com/x  ", "https://example.com/x"],
  ])("accepts %s", (input, expected) => {
    expect(safeHttpUrl(input)).toBe(expected);
  });

  it.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/relative",
    "file:///etc/passwd",
    "ftp://x",
    42,
    null,
  ])("rejects %s", (input) => {
    expect(safeHttpUrl(input)).toBeNull();
  });
});

describe("media data URLs", () => {
  it("allows raster images only", () => {
    expect(imageDataUrl("image/png", "iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageDataUrl("image/svg+xml", "PHN2Zz4=")).toBeNull();
    expect(imageDataUrl("text/html", "PGI+")).toBeNull();
    expect(imageDataUrl("image/png", "not base64!")).toBeNull();
  });

  it("allows audio/* with a token subtype", () => {
    expect(audioDataUrl("audio/wav", "UklGRg==")).toBe("data:audio/wav;base64,UklGRg==");
    expect(audioDataUrl("audio/x,<b>", "UklGRg==")).toBeNull();
    expect(audioDataUrl("video/mp4", "UklGRg==")).toBeNull();
  });

  it("computes decoded sizes", () => {
    expect(base64ByteLength("UklGRg==")).toBe(4);
    expect(base64ByteLength("QUJD")).toBe(3);
  });
});
