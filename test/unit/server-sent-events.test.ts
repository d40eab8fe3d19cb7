import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readServerSentEvents, type RawServerSentEvent } from '../../src/client/server-sent-events.js';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function parse(chunks: Uint8Array[]): Promise<RawServerSentEvent[]> {
  const events: RawServerSentEvent[] = [];
  for await (const event of readServerSentEvents(streamOf(chunks))) events.push(event);
  return events;
}

/** The bytes cut at the given offsets, as a network may deliver them. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks;
}

const sample =
  ': keep-alive\n\n' +
  'event: message.started\ndata: {"id":"msg_1"}\n\n' +
  'event: message.delta\r\ndata: {"id":"msg_1","text":"héllo 👋"}\r\n\r\n' +
  ': keep-alive\r\r' +
  'event: note\rdata:first\rdata: second\r\r' +
  'data: {"plain":true}\n\n' +
  'event: message.completed\ndata: {"id":"msg_1"}\n\n' +
  'event: cut-off\ndata: never ended\n';

const expected: RawServerSentEvent[] = [
  { event: 'message.started', data: '{"id":"msg_1"}' },
  { event: 'message.delta', data: '{"id":"msg_1","text":"héllo 👋"}' },
  { event: 'note', data: 'first\nsecond' },
  { event: 'message', data: '{"plain":true}' },
  { event: 'message.completed', data: '{"id":"msg_1"}' },
];

test('events are read across LF, CR and CRLF endings, with comments skipped and data lines joined', async () => {
  assert.deepEqual(await parse([new TextEncoder().encode(sample)]), expected);
});

test('the same events come out wherever the network cuts the bytes (inside a CRLF or a UTF-8 character too)', async () => {
  const bytes = new TextEncoder().encode(sample);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (offsets) => {
      assert.deepEqual(await parse(cut(bytes, offsets)), expected);
    }),
    { numRuns: 300 },
  );
});

test('one byte at a time still reads every event', async () => {
  const bytes = new TextEncoder().encode(sample);
  assert.deepEqual(await parse([...bytes].map((byte) => Uint8Array.of(byte))), expected);
});
