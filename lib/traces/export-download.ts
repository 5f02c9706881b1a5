// The HTTP shape of an export download: the line generator as a byte stream, and attachment headers.

// Lines are small and many (one per row): each chunk carries ~64 KB of them, so a 100 MB export is ~1,600 chunks.
const CHUNK_CHARS = 64 * 1024;

/** A ReadableStream of UTF-8 bytes pulled from the export's lines (back-pressure: one chunk per pull). */
export function linesToStream(lines: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = "";
      while (chunk.length < CHUNK_CHARS) {
        const next = await lines.next();
        if (next.done) {
          if (chunk !== "") controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}

/** `<group id>.toolscope.jsonl`, with an ASCII fallback name and the exact name in RFC 5987 form. */
export function exportDownloadHeaders(groupId: string): HeadersInit {
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
