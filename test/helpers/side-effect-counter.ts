import { startLoopbackHttpServer } from './loopback-http-server.js';

/**
 * A server a tool with side effects calls (the http plugin's POST), counting
 * the calls per marker: `POST /effects/<marker>` is an effect (it must happen
 * at most once per marker), `GET /reads/<marker>` a read (it may be repeated).
 * Effects are answered after `effectDelayMs`, so that an instance killed at
 * the wrong moment leaves a call begun and not ended.
 */
export interface SideEffectCounter {
  origin: string;
  /** Effects received per marker. */
  effects: Map<string, number>;
  /** Reads received per marker. */
  reads: Map<string, number>;
  /** Markers whose effect arrived more than once. */
  repeatedEffects(): Array<{ marker: string; count: number }>;
  close(): Promise<void>;
}

export async function startSideEffectCounter({ effectDelayMs = 0 } = {}): Promise<SideEffectCounter> {
  const effects = new Map<string, number>();
  const reads = new Map<string, number>();
  const server = await startLoopbackHttpServer((request, response) => {
    const match = /^\/(effects|reads)\/([^/?]+)/.exec(request.path);
    if (match === null) {
      response.writeHead(404).end();
      return;
    }
    const [, kind, marker] = match as unknown as [string, 'effects' | 'reads', string];
    const counts = kind === 'effects' ? effects : reads;
    counts.set(marker, (counts.get(marker) ?? 0) + 1);
    const answer = () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, marker }));
    if (kind === 'effects' && effectDelayMs > 0) setTimeout(answer, effectDelayMs);
    else answer();
  });
  return {
    origin: server.origin,
    effects,
    reads,
    repeatedEffects: () => [...effects].filter(([, count]) => count > 1).map(([marker, count]) => ({ marker, count })),
    close: () => server.close(),
  };
}
