/**
 * Loaded into a server of the capacity run with STALLS=1 (`node --import` this file): where the time of each
 * new stream goes inside the server, and what stopped the server meanwhile. Written as JSON to
 * BENCH_STALLS_FILE when the server is told to stop (SIGTERM), read by stalls.ts.
 *
 * - For every `POST …/messages`: when its request began, when the server's call to the provider went out (the
 *   first HTTP/2 request made while it was waiting), when the provider's first data came back, and when its
 *   first `message.delta` was written.
 * - Every garbage collection (perf_hooks): start, duration and kind.
 * - With BENCH_STALLS_LAGS=1, every stretch of 4 ms or more between two ticks of a 1 ms interval timer (the
 *   process was busy, or not running). The timer keeps the process awake, so it changes what it measures a
 *   little: leave it off for the figures, on to find the stretches.
 *
 * In the provider (an HTTP/2 server): when each request arrived, and when the provider wrote its first text (the
 * bench provider's replies are the words `word0 word1 …`).
 * Times are the process's `performance.timeOrigin` plus `performance.now()`, so the server's and the provider's
 * can be set side by side (two processes of one machine; their clocks agree to a fraction of a millisecond).
 *
 * Node's own modules only: http2 requests are seen by wrapping `http2.connect`'s sessions and the streams of
 * `http2.createSecureServer`'s servers, the first delta by wrapping `ServerResponse.prototype.write` and
 * `net.Socket.prototype.write` (agentd writes its event streams' chunks to the socket itself).
 */
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const output = process.env.BENCH_STALLS_FILE;
const requests = [];
/** The provider's: when each request arrived and when its first text was written. */
const answers = [];
const calls = [];
const collections = [];
const lags = [];
let waiting = 0;

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push([entry.startTime, entry.duration, entry.detail?.kind ?? 0]);
}).observe({ entryTypes: ['gc'] });

diagnostics.subscribe('http.server.request.start', ({ request, response }) => {
  if (request.method !== 'POST' || !request.url.endsWith('/messages')) return;
  const timing = { began: performance.now(), delta: 0 };
  requests.push(timing);
  waiting += 1;
  response.stallWatch = timing;
  response.on('close', () => {
    if (timing.delta !== 0) return;
    timing.delta = -1;
    waiting -= 1;
  });
});

/** A write of `response`'s body: the first that carries a `message.delta` is the stream's first delta. */
function noteWrite(response, chunk) {
  const timing = response?.stallWatch;
  if (timing !== undefined && timing.delta === 0 && String(chunk).includes('message.delta')) {
    timing.delta = performance.now();
    waiting -= 1;
  }
}

const write = http.ServerResponse.prototype.write;
http.ServerResponse.prototype.write = function (chunk, ...rest) {
  noteWrite(this, chunk);
  return write.call(this, chunk, ...rest);
};
// agentd's event streams write their chunks to the socket themselves after the first (src/http/sse.ts).
const socketWrite = net.Socket.prototype.write;
net.Socket.prototype.write = function (chunk, ...rest) {
  noteWrite(this._httpMessage, chunk);
  return socketWrite.call(this, chunk, ...rest);
};

const connect = http2.connect;
http2.connect = function (...parameters) {
  const session = connect.apply(this, parameters);
  const request = session.request;
  session.request = function (...requestParameters) {
    const call = { sent: performance.now(), data: 0 };
    if (waiting > 0) calls.push(call);
    const stream = request.apply(this, requestParameters);
    stream.once('data', () => {
      call.data = performance.now();
    });
    return stream;
  };
  return session;
};

const createSecureServer = http2.createSecureServer;
http2.createSecureServer = function (...parameters) {
  const server = createSecureServer.apply(this, parameters);
  server.prependListener('stream', (stream) => {
    const answer = { arrived: performance.now(), text: 0 };
    answers.push(answer);
    const streamWrite = stream.write;
    stream.write = function (chunk, ...rest) {
      if (answer.text === 0 && String(chunk).includes('"content":"word')) answer.text = performance.now();
      return streamWrite.call(this, chunk, ...rest);
    };
  });
  return server;
};

if (process.env.BENCH_STALLS_LAGS === '1') {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last >= 4) lags.push([last, now - last]);
    last = now;
  }, 1).unref();
}

if (output)
  process.prependListener('SIGTERM', () =>
    fs.writeFileSync(
      output,
      JSON.stringify({ origin: performance.timeOrigin, requests, calls, collections, lags, answers }),
    ),
  );
