// The HTTP shape of an export download: the line generator in chunks, and attachment headers.

// Lines are small and many (one per row): each chunk carries ~64 KB of them, so a 100 MB export is ~1,600 chunks.
const CHUNK_CHARS = 64 * 1024;

/** The export's lines gathered into ~64 KB chunks (back-pressure: the next chunk is read when asked for). */
export async function* chunkLines(lines: AsyncGenerator<string>): AsyncGenerator<string> {
  let chunk = "";
  try {
    for await (const line of lines) {
      chunk += line;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk !== "") yield chunk;
  } finally {
    await lines.return(undefined);
  }
}

/** `<group id>.toolscope.jsonl`, with an ASCII fallback name and the exact name in RFC 5987 form. */
export function exportDownloadHeaders(groupId: string): Record<string, string> {
  const fileName = `${groupId}.toolscope.jsonl`;
  const asciiName = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
  return {
    "content-type": "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="${asciiName}"; filename*=UTF-8''${rfc5987(fileName)}`,
    "cache-control": "no-store",
  };
}

// encodeURIComponent leaves ' ( ) * as they are; RFC 5987's attr-char does not allow them.
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
