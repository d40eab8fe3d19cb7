/**
 * The tests' fake OpenAI-compatible provider as a process of its own, scripted
 * for one tool round trip, and timing it:
 *
 *   node --import tsx bench/tool-call/fake-provider.ts     (started by run.ts, over IPC)
 *
 * A request that offers tools and does not bring a tool result back is
 * answered with a call of the tool it offers: the math plugin's `calculate` on
 * "1+1", the openapi plugin's `getItem` on item 1, or the http plugin's
 * `fetch_url` on the same item of the bench's API (its origin is this
 * script's argument); the request bringing the result back, and any request
 * without tools, with one word.
 * For every result that comes back, the gap between the last byte of the
 * answer that asked for the tool and the arrival of the request carrying its
 * result is measured here, on this process's clock: what happened in between
 * was agentd's (reading the answer, running the tool, asking again) and the
 * loopback's both ways, none of it the provider's. The same gap is measured
 * for the replayed pairs (a bare client sending the result request as soon
 * as the answer asking for the tool has ended), which is the floor: the
 * loopback and the waking of the processes, with nothing run in between.
 *
 * It prints its base URL, then answers `{ type: 'take' }` on its IPC channel
 * with the gaps since the last take (milliseconds; agentd's and the replays') and the first request of
 * each kind it received (their bodies, to replay them directly).
 */
import { startFakeOpenAiServer } from '../../test/helpers/fake-openai-server.js';
import type { RecordedRequest } from '../../test/helpers/fake-provider-server.js';

export type RequestKind = 'tool-call' | 'tool-result' | 'plain';

export interface Taken {
  type: 'taken';
  gapsMs: number[];
  /** The same gaps for replayed pairs: the answer asking for the tool was the last one sent. */
  replayGapsMs: number[];
  /** The body of the first request of each kind since the start. */
  samples: Partial<Record<RequestKind, RecordedRequest['body']>>;
}

const apiOrigin = process.argv[2] ?? 'http://127.0.0.1:9';
const server = await startFakeOpenAiServer();

/** The call that exercises the tool the request offers. */
function toolCallFor(request: RecordedRequest, id: string) {
  const offered = new Set(request.offeredTools.map((tool) => tool.name));
  if (offered.has('getItem')) return { id, name: 'getItem', input: { id: 1 } };
  if (offered.has('fetch_url')) return { id, name: 'fetch_url', input: { url: `${apiOrigin}/items/1` } };
  return { id, name: 'calculate', input: { expression: '1+1' } };
}
const samples: Taken['samples'] = {};
/** The answers that asked for a tool, by the id of the call they made, until its result comes back. */
const waitingForResult = new Map<string, RecordedRequest>();
let gapsMs: number[] = [];
let replayGapsMs: number[] = [];
let lastAsked: RecordedRequest | undefined;
let nextCallNumber = 0;

function kindOf(request: RecordedRequest): RequestKind {
  if (request.body.messages.at(-1)?.role === 'tool') return 'tool-result';
  return request.offeredTools.length > 0 ? 'tool-call' : 'plain';
}

server.setDefault((request) => {
  const kind = kindOf(request);
  samples[kind] ??= request.body;
  if (kind === 'tool-call') {
    const id = `call_bench${(nextCallNumber += 1)}`;
    waitingForResult.set(id, request);
    lastAsked = request;
    return { toolCalls: [toolCallFor(request, id)] };
  }
  if (kind === 'tool-result') {
    const id = request.toolResults.at(-1)?.toolCallId ?? '';
    const asked = waitingForResult.get(id);
    waitingForResult.delete(id);
    // Replayed requests reuse an id already answered; their pair is the last answer that asked for a tool.
    // Each answer pairs with one result at most, so a result replayed alone is no pair.
    const pair = asked ?? lastAsked;
    if (pair?.completedAt !== undefined) (asked ? gapsMs : replayGapsMs).push(request.receivedAt - pair.completedAt);
    if (pair === lastAsked) lastAsked = undefined;
  }
  return { reply: 'Two.' };
});
// Recorded requests would grow without bound in a long run; the samples and the waiting calls hold what is needed.
// Replayed requests ask for calls nobody runs: those are let go once no round trip could still bring them back.
setInterval(() => {
  server.requests.splice(0);
  const stale = performance.now() - 10_000;
  for (const [id, asked] of waitingForResult) if (asked.receivedAt < stale) waitingForResult.delete(id);
}, 1000).unref();

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'take') return;
  const taken: Taken = { type: 'taken', gapsMs, replayGapsMs, samples };
  gapsMs = [];
  replayGapsMs = [];
  process.send!(taken);
});
process.stdout.write(`${server.baseUrl}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
