import type { ServerProcess } from './server-process.js';

/**
 * Clients that create and read agents in a loop until stopped, counting the
 * answers by status, as in a store outage under load. Any answer at or above
 * 500 is kept whole, so a test can show exactly what went wrong.
 */
export interface LoadAnswer {
  status: number;
  code: string | null;
  retryAfter: string | null;
}

export interface LoadReport {
  /** Answers by `status` or `status code`, e.g. `201`, `503 service_unavailable`; `no answer` for a timeout or reset. */
  counts: Record<string, number>;
  /** Every answer at or above 500, and every request that got no answer. */
  failures: Array<LoadAnswer | { status: 'no answer'; error: string }>;
  /** Answers so far (for waiting until some arrived). */
  total: number;
  /** Successful answers so far. */
  successes: number;
}

export interface Load {
  report: LoadReport;
  stop(): Promise<LoadReport>;
}

export function startLoad(server: ServerProcess, key: string, options: { clients: number; timeoutMs: number }): Load {
  const report: LoadReport = { counts: {}, failures: [], total: 0, successes: 0 };
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let running = true;

  async function request(method: string, url: string, body?: unknown): Promise<{ id?: string } | null> {
    try {
      const response = await fetch(`${server.url}${url}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const parsed = (await response.json()) as { id?: string; code?: string };
      const answer: LoadAnswer = {
        status: response.status,
        code: response.status >= 400 ? (parsed.code ?? null) : null,
        retryAfter: response.headers.get('retry-after'),
      };
      const label = answer.code ? `${answer.status} ${answer.code}` : String(answer.status);
      report.counts[label] = (report.counts[label] ?? 0) + 1;
      report.total += 1;
      if (response.ok) report.successes += 1;
      if (response.status >= 500) report.failures.push(answer);
      return response.ok ? parsed : null;
    } catch (error) {
      report.counts['no answer'] = (report.counts['no answer'] ?? 0) + 1;
      report.total += 1;
      report.failures.push({ status: 'no answer', error: String(error) });
      return null;
    }
  }

  async function client(): Promise<void> {
    while (running) {
      const created = await request('POST', '/v1/agents', { name: 'Under load' });
      if (created?.id && running) await request('GET', `/v1/agents/${created.id}`);
    }
  }

  const clients = Array.from({ length: options.clients }, () => client());
  return {
    report,
    async stop() {
      running = false;
      await Promise.all(clients);
      return report;
    },
  };
}

/** The failures that break the promise: anything at or above 500 but a 503 `service_unavailable` with Retry-After. */
export function unexpectedFailures(report: LoadReport): LoadReport['failures'] {
  return report.failures.filter(
    (failure) =>
      !(failure.status === 503 && 'code' in failure && failure.code === 'service_unavailable' && failure.retryAfter),
  );
}
