/**
 * Reads a response body up to `maxBytes` and stops there: the rest is never
 * read from the socket, so a huge or endless body costs no more than the cap.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (body === null) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const room = maxBytes - length;
      if (chunk.value.byteLength > room) {
        chunks.push(chunk.value.subarray(0, room));
        length += room;
        truncated = true;
        break;
      }
      chunks.push(chunk.value);
      length += chunk.value.byteLength;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { bytes: Buffer.concat(chunks, length), truncated };
}
