// Pure number formatting shared by server and client components: counts, byte sizes, hashes, confidences.

const COUNT = new Intl.NumberFormat("en-US");

export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** Byte counts, in binary units everywhere (1 KiB = 1024 bytes): "812 B", "14.2 KiB", "5.0 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${COUNT.format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
}

/** The first 12 hex digits: enough to tell hashes apart at a glance; the full hash goes in a title. */
export function shortHash(hex: string): string {
  return hex.slice(0, 12);
}

export function formatConfidence(c: number): string {
  return c.toFixed(2);
}

/** "3 calls" / "1 call". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
