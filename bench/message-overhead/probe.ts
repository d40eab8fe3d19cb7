/**
 * The capacity run's new streams (run.ts), from a process of their own: one
 * at a time, `gapMs` apart, the time to the first text of a stream from the
 * provider directly (a stream of a connection already open when it is at an
 * https: address, as agentd's own calls to it are) and through agentd (a new
 * connection, as a new client's). Prints the timings as one line of JSON.
 *
 *   node --import tsx bench/message-overhead/probe.ts '{"providerUrl":…,"messagesUrl":…,…}'
 */
import http from 'node:http';
import http2 from 'node:http2';

interface ProbeSettings {
  providerUrl: string;
  /** The provider's certificate, when it is at an https: address. */
  ca?: string;
  messagesUrl: string;
  authorization: string;
  probes: number;
  gapMs: number;
}

export function firstText(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  marker: string,
  session?: http2.ClientHttp2Session,
): Promise<number> {
  const payload = JSON.stringify(body);
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
    };
    if (session !== undefined) {
      const stream = session.request({ ':method': 'POST', ':path': new URL(url).pathname, ...outgoing });
      stream.on('error', reject);
      stream.on('response', (received) => {
        if (received[':status'] !== 200) reject(new Error(`HTTP ${received[':status']}`));
      });
      stream.on('data', (chunk: Buffer) => {
        if (!chunk.includes(marker)) return;
        resolve(performance.now() - start);
        stream.close();
      });
      stream.end(payload);
      return;
    }
    const request = http.request(url, { method: 'POST', agent: false, headers: outgoing });
    request.on('error', reject);
    request.on('response', (response) => {
      if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
      response.on('data', (chunk: Buffer) => {
        if (!chunk.includes(marker)) return;
        resolve(performance.now() - start);
        request.destroy();
      });
      response.on('error', () => undefined);
    });
    request.end(payload);
  });
}

const settings = JSON.parse(process.argv[2]!) as ProbeSettings;
const providerBody = {
  model: 'bench-model',
  messages: [{ role: 'user', content: 'Count slowly.' }],
  stream: true,
  stream_options: { include_usage: true },
};
const session =
  settings.ca !== undefined ? http2.connect(new URL(settings.providerUrl).origin, { ca: settings.ca }) : undefined;
const direct: number[] = [];
const through: number[] = [];
let failed = 0;
// Each new stream meets the open ones, not the wind-down of the one before (its client hung up after the first
// text, so agentd stops its model call and stores the cut-off exchange).
for (let index = 0; index < settings.probes; index += 1) {
  await new Promise((resolve) => setTimeout(resolve, settings.gapMs));
  direct.push(await firstText(`${settings.providerUrl}/chat/completions`, providerBody, {}, '"content"', session));
  const time = await firstText(
    settings.messagesUrl,
    { text: 'Count slowly.', userId: `probe-${index}`, stream: true },
    { authorization: settings.authorization },
    'message.delta',
  ).catch(() => undefined);
  if (time === undefined) failed += 1;
  else through.push(time);
}
session?.close();
process.stdout.write(`${JSON.stringify({ direct, through, failed })}\n`);
