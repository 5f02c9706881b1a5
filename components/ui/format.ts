// Pure number formatting shared by server and client components: counts, byte sizes, hashes, confidences.

const COUNT = new Intl.NumberFormat("en-US");

export function formatCount(n: number): string {
  return COUNT.format(n);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
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
