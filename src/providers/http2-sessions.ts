import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';

/**
 * HTTP/2 connections to the model providers' https: origins, shared by many
 * model calls at once: a streamed reply holds a stream of a connection, not a
 * connection (and a file descriptor) of its own. Hosted providers speak
 * HTTP/2; an origin whose server answers TLS's ALPN with HTTP/1.1 is
 * remembered as such, and its calls take node:https's keep-alive pool.
 *
 * Why hand-written: undici's `allowH2` on the majors that install on Node 20
 * (6 and 7) opens a session per request when calls overlap, so nothing is
 * multiplexed (measured: 300 overlapping calls, 300 sessions); node:http2
 * multiplexes, and this file only decides which session a call takes.
 */

/** Streams one connection carries at most (fewer when the server's SETTINGS say so). */
export const streamsPerSession = 100;
/** A connection with no stream for this long is closed. */
const idleCloseMs = 30_000;
/** Connecting, the TLS handshake and the server's first SETTINGS must take less than this. */
const connectTimeoutMs = 10_000;
/** Connection-level receive window: room for every stream's own window, so a slow reader never stalls the others. */
const sessionWindowBytes = streamsPerSession * 65_535 * 2;

export interface PooledSession {
  readonly session: http2.ClientHttp2Session;
  /** Streams open on it, counted by this pool. */
  active: number;
  /** At most this many streams: the lower of `streamsPerSession` and the server's limit. */
  limit: number;
  idleTimer: NodeJS.Timeout | undefined;
  /** Takes it out of the pool: no new stream goes to it. */
  readonly forget: () => void;
}

interface Opening {
  readonly result: Promise<PooledSession | 'http/1.1'>;
  /** Calls waiting for it, each of which will want a stream. */
  waiting: number;
}

interface Origin {
  /** The server chose HTTP/1.1 (or no ALPN at all): calls go to node:https. */
  http1: boolean;
  /** Streams a connection to it may carry, as its server last said (`streamsPerSession` until it has). */
  limit: number;
  readonly sessions: PooledSession[];
  readonly opening: Opening[];
}

export interface Http2SessionsOptions {
  /**
   * The certificates trusted instead of Node's default ones (tests). Production leaves it out: Node's roots,
   * with NODE_EXTRA_CA_CERTS added, are trusted.
   */
  ca?: string | Buffer;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function usable(pooled: PooledSession): boolean {
  return pooled.active < pooled.limit && !pooled.session.closed && !pooled.session.destroyed;
}

export class Http2Sessions {
  readonly #origins = new Map<string, Origin>();
  readonly #options: Http2SessionsOptions;
  #closed = false;

  constructor(options: Http2SessionsOptions = {}) {
    this.#options = options;
  }

  /**
   * A session with a stream reserved for the caller (give it back with
   * `release`), or 'http/1.1' when the origin does not speak HTTP/2. Calls
   * that arrive while a connection is being opened wait for it rather than
   * each opening their own, as many as the server allows on one connection.
   */
  async acquire(url: URL, signal: AbortSignal | undefined): Promise<PooledSession | 'http/1.1'> {
    for (;;) {
      const origin = this.#originOf(url.origin);
      if (origin.http1) return 'http/1.1';
      const free = origin.sessions.find(usable);
      if (free !== undefined) {
        this.#take(free);
        return free;
      }
      const opening = origin.opening.find((candidate) => candidate.waiting < origin.limit) ?? this.#open(url, origin);
      opening.waiting += 1;
      const opened = await abortable(opening.result, signal).finally(() => {
        opening.waiting -= 1;
      });
      if (opened === 'http/1.1') return opened;
      // The server may allow fewer streams than were waiting, or have gone away meanwhile: look again.
      if (usable(opened)) {
        this.#take(opened);
        return opened;
      }
    }
  }

  /** Gives back the stream `acquire` reserved. */
  release(pooled: PooledSession): void {
    pooled.active -= 1;
    if (pooled.active === 0) this.#idle(pooled);
  }

  /** Closes every connection (streams in flight finish first); connections still opening close when open. */
  close(): void {
    this.#closed = true;
    for (const origin of this.#origins.values()) {
      for (const pooled of [...origin.sessions]) {
        pooled.forget();
        pooled.session.close();
      }
    }
    this.#origins.clear();
  }

  #idle(pooled: PooledSession): void {
    if (pooled.session.destroyed) return;
    pooled.session.unref();
    clearTimeout(pooled.idleTimer);
    pooled.idleTimer = setTimeout(() => {
      // Out of the pool first: `close` waits for the server, and a call meanwhile must open another.
      pooled.forget();
      pooled.session.close();
    }, idleCloseMs).unref();
  }

  #take(pooled: PooledSession): void {
    pooled.active += 1;
    if (pooled.active !== 1) return;
    clearTimeout(pooled.idleTimer);
    pooled.idleTimer = undefined;
    pooled.session.ref();
  }

  #originOf(key: string): Origin {
    let origin = this.#origins.get(key);
    if (origin === undefined) {
      origin = { http1: false, limit: streamsPerSession, sessions: [], opening: [] };
      this.#origins.set(key, origin);
    }
    return origin;
  }

  /**
   * A new connection, given to its waiters once the server's SETTINGS have
   * come: they say how many streams it takes, and only so many waiters take one.
   */
  #open(url: URL, origin: Origin): Opening {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const result = new Promise<PooledSession | 'http/1.1'>((resolve, reject) => {
      const socket = tls.connect({
        host,
        port: url.port === '' ? 443 : Number(url.port),
        // SNI carries names only.
        ...(net.isIP(host) === 0 ? { servername: host } : {}),
        ALPNProtocols: ['h2', 'http/1.1'],
        ...(this.#options.ca !== undefined ? { ca: this.#options.ca } : {}),
      });
      const fail = (error: Error) => {
        socket.destroy();
        reject(error);
      };
      socket.setTimeout(connectTimeoutMs, () =>
        fail(new Error(`no HTTP/2 connection to ${url.origin} within ${connectTimeoutMs} ms`)),
      );
      socket.once('error', fail);
      socket.once('secureConnect', () => {
        if (socket.alpnProtocol !== 'h2') {
          socket.setTimeout(0);
          socket.off('error', fail);
          origin.http1 = true;
          socket.destroy();
          resolve('http/1.1');
          return;
        }
        const session = http2.connect(url.origin, { createConnection: () => socket, settings: { enablePush: false } });
        const forget = () => {
          clearTimeout(pooled.idleTimer);
          const index = origin.sessions.indexOf(pooled);
          if (index !== -1) origin.sessions.splice(index, 1);
        };
        const pooled: PooledSession = { session, active: 0, limit: streamsPerSession, idleTimer: undefined, forget };
        // A connection the server is leaving (GOAWAY), that failed or closed takes no new stream; its open
        // streams end as the server ends them.
        session.once('goaway', forget);
        session.once('close', () => {
          forget();
          fail(new Error(`the HTTP/2 connection to ${url.origin} closed before its settings came`));
        });
        session.on('error', (error: Error) => {
          forget();
          fail(error);
        });
        session.on('remoteSettings', (settings) => {
          pooled.limit = Math.min(streamsPerSession, settings.maxConcurrentStreams ?? streamsPerSession);
          origin.limit = pooled.limit;
        });
        session.once('remoteSettings', () => {
          socket.setTimeout(0);
          socket.off('error', fail);
          session.setLocalWindowSize(sessionWindowBytes);
          if (this.#closed) {
            session.destroy();
            reject(new Error('the providers’ connections are closed'));
            return;
          }
          origin.sessions.push(pooled);
          // Idle until a waiter takes a stream (none may: they can all have given up).
          this.#idle(pooled);
          resolve(pooled);
        });
      });
    });
    const opening: Opening = { result, waiting: 0 };
    origin.opening.push(opening);
    const done = () => {
      origin.opening.splice(origin.opening.indexOf(opening), 1);
    };
    result.then(done, done);
    return opening;
  }
}
