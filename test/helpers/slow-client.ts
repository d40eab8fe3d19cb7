import net from 'node:net';
import { once } from 'node:events';

/**
 * Resolves when the socket closes, however it closes: a server cutting a slow
 * client off may reset the connection (a byte written after its close), and
 * events.once would reject on that 'error' instead.
 */
function closed(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on('error', () => {});
    socket.once('close', () => resolve());
  });
}

export interface SlowExchange {
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
  /** Bytes of `trickle` written before the close. */
  bytesSent: number;
  /** Everything the server wrote back. */
  received: string;
}

/**
 * A slow-loris client: writes `head` at once, then `trickle` one byte every
 * `everyMs`, and resolves when the server closes the connection. If the
 * server never does, it gives up after `giveUpMs` and rejects, so a missing
 * bound fails the test instead of hanging it.
 */
export async function trickleRequest(options: {
  port: number;
  head: string;
  trickle: string;
  everyMs: number;
  giveUpMs: number;
}): Promise<SlowExchange> {
  const socket = net.connect({ host: '127.0.0.1', port: options.port });
  await once(socket, 'connect');
  const started = Date.now();
  let received = '';
  let bytesSent = 0;
  socket.on('data', (chunk) => (received += String(chunk)));
  const socketClosed = closed(socket);
  socket.write(options.head);
  const dripping = setInterval(() => {
    if (bytesSent < options.trickle.length && socket.writable) socket.write(options.trickle[bytesSent++] as string);
  }, options.everyMs);
  const giveUp = setTimeout(() => socket.destroy(new Error('gave up')), options.giveUpMs);
  try {
    await socketClosed;
  } finally {
    clearInterval(dripping);
    clearTimeout(giveUp);
  }
  const closedAfterMs = Date.now() - started;
  if (closedAfterMs >= options.giveUpMs) {
    throw new Error(`the server kept a slow connection open for ${options.giveUpMs} ms`);
  }
  return { closedAfterMs, bytesSent, received };
}

/** Sends one complete keep-alive request and resolves when the server closes the then idle connection. */
export async function idleAfterOneRequest(
  port: number,
  giveUpMs: number,
): Promise<{ idleMs: number; received: string }> {
  const socket = net.connect({ host: '127.0.0.1', port });
  await once(socket, 'connect');
  let received = '';
  let answeredAt = 0;
  socket.on('data', (chunk) => {
    received += String(chunk);
    if (answeredAt === 0 && received.includes('\r\n\r\n')) answeredAt = Date.now();
  });
  const socketClosed = closed(socket);
  socket.write('GET /healthz HTTP/1.1\r\nHost: agentd\r\n\r\n');
  const giveUp = setTimeout(() => socket.destroy(new Error('gave up')), giveUpMs);
  await socketClosed;
  clearTimeout(giveUp);
  if (answeredAt === 0) throw new Error(`no answer before the connection closed: ${received}`);
  return { idleMs: Date.now() - answeredAt, received };
}
