// Bytes shown as text on a page: UTF-8, invalid sequences as U+FFFD, at most 256 KiB.
export const SHOWN_BODY_BYTES = 256 * 1024;

export function decodeTextLossy(bytes: Uint8Array, limit = SHOWN_BODY_BYTES): string {
  return Buffer.from(bytes.subarray(0, limit)).toString("utf8");
}
