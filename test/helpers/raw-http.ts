import net from 'node:net';

/**
 * An HTTP/1.1 client over a bare socket. node:http and fetch refuse to send
 * much of what the fuzzer wants the server to see (raw bytes in the path,
 * invalid header values, duplicated or conflicting framing headers), so every
 * byte is written as given and the answer is parsed here.
 */

export interface RawResponse {
  status: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
}

export type RawOutcome = { kind: 'response'; response: RawResponse } | { kind: 'no-response'; reason: string };

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let position = 0;
  while (position < data.length) {
    const lineEnd = data.indexOf('\r\n', position);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(position, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    position = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The first final (non-1xx) response in `data`, or null when it is incomplete. */
export function parseResponse(data: Buffer): RawResponse | null {
  let start = 0;
  for (;;) {
    const headerEnd = data.indexOf('\r\n\r\n', start);
    if (headerEnd < 0) return null;
    const lines = data.subarray(start, headerEnd).toString('latin1').split('\r\n');
    const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!statusMatch) return null;
    const status = Number(statusMatch[1]);
    // An interim answer (100 Continue to an Expect header) comes before the real one.
    if (status < 200) {
      start = headerEnd + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = data.subarray(headerEnd + 4);
    const length = headers['content-length'];
    const body =
      headers['transfer-encoding']?.toLowerCase() === 'chunked'
        ? decodeChunked(rest)
        : length !== undefined
          ? rest.subarray(0, Number(length))
          : rest;
    return { status, headers, body };
  }
}

/**
 * Writes `request` (a whole HTTP message, framing included) and reads until
 * the server closes the connection; the request asks for that with
 * `Connection: close`, so one socket carries exactly one exchange.
 */
export function sendRaw(port: number, request: Buffer, timeoutMs: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect({ host: '127.0.0.1', port });
    const finish = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const response = parseResponse(Buffer.concat(chunks));
      resolve(response ? { kind: 'response', response } : { kind: 'no-response', reason });
    };
    const timer = setTimeout(() => finish(`no complete answer within ${timeoutMs} ms`), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish('the server closed the connection without an answer'));
    socket.on('close', () => finish('the connection closed without an answer'));
    // A server may answer (413, 431) and close before it has read everything; what it sent still counts.
    socket.on('error', (error) => finish(`socket error: ${error.message}`));
    socket.write(request);
  });
}
