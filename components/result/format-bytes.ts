// Owns how byte counts read on result pages: "812 B", "14.2 KB", "5.0 MB" (1 KB = 1024 bytes).
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString("en-US")} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
