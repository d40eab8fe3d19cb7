import http from 'node:http';

/**
 * A lean HTTP client for the measurements (node:http with keep-alive), the
 * same for requests to agentd and to the provider directly, so that its own
 * cost cancels out of the difference.
 */
export interface Timing {
  /** Milliseconds to the complete response. */
  totalMs: number;
  /** Milliseconds to the first streamed text (agentd's first message.delta, or the provider's first content chunk). */
  firstTextMs: number;
  status: number;
}

export function post(
  agent: http.Agent,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  firstTextMarker: string,
): Promise<Timing> {
  return postBytes(agent, url, Buffer.from(JSON.stringify(body)), 'application/json', headers, firstTextMarker);
}

/** POSTs a body already encoded (JSON, or a multipart/form-data body with its boundary in `contentType`). */
export function postBytes(
  agent: http.Agent,
  url: string,
  payload: Buffer,
  contentType: string,
  headers: Record<string, string>,
  firstTextMarker: string,
): Promise<Timing> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-type': contentType, 'content-length': String(payload.byteLength) },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let firstTextMs = Number.NaN;
      response.on('data', (chunk: Buffer) => {
        if (Number.isNaN(firstTextMs) && chunk.includes(firstTextMarker)) firstTextMs = performance.now() - start;
      });
      response.on('end', () =>
        resolve({ totalMs: performance.now() - start, firstTextMs, status: response.statusCode ?? 0 }),
      );
      response.on('error', reject);
    });
    request.end(payload);
  });
}

export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** Runs `total` requests with `concurrency` in flight at once; returns every timing. */
export async function load(
  total: number,
  concurrency: number,
  send: (index: number) => Promise<Timing>,
): Promise<Timing[]> {
  const timings: Timing[] = [];
  let next = 0;
  async function worker() {
    while (next < total) {
      const index = next;
      next += 1;
      const timing = await send(index);
      if (timing.status !== 200) throw new Error(`request ${index} answered ${timing.status}`);
      timings.push(timing);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return timings;
}
