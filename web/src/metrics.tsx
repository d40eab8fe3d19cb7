import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type AgentMetrics, type MetricsBucket } from './api.js';

type Interval = 'minute' | 'hour' | 'day';

interface ChartSpec {
  title: string;
  unit: string;
  series: Array<{ label: string; value: (bucket: MetricsBucket) => number | null; color: string }>;
}

const charts: ChartSpec[] = [
  {
    title: 'Messages',
    unit: 'messages',
    series: [
      { label: 'Messages', value: (bucket) => bucket.messages, color: '#2563eb' },
      { label: 'Streamed', value: (bucket) => bucket.streamedMessages, color: '#0891b2' },
      { label: 'Failed', value: (bucket) => bucket.failedMessages, color: '#dc2626' },
      { label: 'Tool calls', value: (bucket) => bucket.toolCalls, color: '#7c3aed' },
    ],
  },
  {
    title: 'Tokens',
    unit: 'tokens',
    series: [
      { label: 'Input', value: (bucket) => bucket.inputTokens, color: '#2563eb' },
      { label: 'Output', value: (bucket) => bucket.outputTokens, color: '#16a34a' },
    ],
  },
  {
    title: 'Latency',
    unit: 'ms',
    series: [
      { label: 'p50', value: (bucket) => bucket.latencyMs.p50, color: '#16a34a' },
      { label: 'p95', value: (bucket) => bucket.latencyMs.p95, color: '#ca8a04' },
      { label: 'p99', value: (bucket) => bucket.latencyMs.p99, color: '#dc2626' },
      { label: 'First token p50', value: (bucket) => bucket.timeToFirstTokenMs.p50, color: '#0891b2' },
      { label: 'First token p95', value: (bucket) => bucket.timeToFirstTokenMs.p95, color: '#7c3aed' },
    ],
  },
  {
    title: 'Refused',
    unit: 'requests',
    series: [
      { label: 'Rate limited', value: (bucket) => bucket.rateLimited, color: '#ca8a04' },
      { label: 'Concurrency', value: (bucket) => bucket.concurrencyRejected, color: '#dc2626' },
    ],
  },
];

/**
 * The agent's metrics (GET /v1/agents/{id}/metrics) drawn with uPlot, loaded
 * only when this view opens so the first load stays small. A 404 means the
 * server has no metrics for the agent (or no metrics endpoint yet).
 */
export function Metrics({ agentId }: { agentId: string }) {
  const [interval, setInterval] = useState<Interval | ''>('');
  const [metrics, setMetrics] = useState<AgentMetrics | null>(null);
  const [state, setState] = useState<'loading' | 'missing' | 'ready' | 'failed'>('loading');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    setState('loading');
    api.metrics(agentId, { interval: interval || undefined }).then(
      (result) => {
        setMetrics(result);
        setState('ready');
      },
      (caught) => {
        if (caught instanceof ApiError && caught.status === 404) setState('missing');
        else {
          setProblem(caught instanceof ApiError ? caught.message : 'The metrics could not be loaded.');
          setState('failed');
        }
      },
    );
  }, [agentId, interval]);

  return (
    <section aria-labelledby="metrics-title">
      <h2 id="metrics-title">Metrics</h2>
      <div class="filters">
        <div class="field">
          <label for="metrics-interval">Interval</label>
          <select
            id="metrics-interval"
            value={interval}
            onChange={(event) => setInterval(event.currentTarget.value as Interval | '')}
          >
            <option value="">Server default</option>
            <option value="minute">Minute</option>
            <option value="hour">Hour</option>
            <option value="day">Day</option>
          </select>
        </div>
      </div>
      <div role="status">
        {state === 'loading' && <p>Loading metrics…</p>}
        {state === 'missing' && <p class="notice">No metrics yet.</p>}
      </div>
      {state === 'failed' && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {state === 'ready' && metrics && (
        <>
          <p class="hint">
            {new Date(metrics.from).toLocaleString()} – {new Date(metrics.to).toLocaleString()}, per {metrics.interval}
          </p>
          <Totals metrics={metrics} />
          {charts.map((spec) => (
            <Chart spec={spec} buckets={metrics.buckets} />
          ))}
        </>
      )}
    </section>
  );
}

function Totals({ metrics }: { metrics: AgentMetrics }) {
  const totals = metrics.totals;
  const rows: Array<[string, string]> = [
    ['Messages', String(totals.messages)],
    ['Streamed', String(totals.streamedMessages)],
    ['Failed', String(totals.failedMessages)],
    ['Tool calls', String(totals.toolCalls)],
    ['Input tokens', String(totals.inputTokens)],
    ['Output tokens', String(totals.outputTokens)],
    ['Latency p50 / p95 / p99', [totals.latencyMs.p50, totals.latencyMs.p95, totals.latencyMs.p99].map(ms).join(' / ')],
    ['First token p50 / p95', [totals.timeToFirstTokenMs.p50, totals.timeToFirstTokenMs.p95].map(ms).join(' / ')],
    ['Rate limited', String(totals.rateLimited)],
    ['Concurrency refused', String(totals.concurrencyRejected)],
  ];
  const failures = Object.entries(totals.failuresByType);
  return (
    <dl class="totals" aria-label="Totals">
      {rows.map(([label, value]) => (
        <div>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      {failures.length > 0 && (
        <div>
          <dt>Failures by type</dt>
          <dd>{failures.map(([type, count]) => `${type}: ${count}`).join(', ')}</dd>
        </div>
      )}
    </dl>
  );
}

const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

function Chart({ spec, buckets }: { spec: ChartSpec; buckets: MetricsBucket[] }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      const element = container.current;
      if (cancelled || !element) return;
      const width = () => Math.max(element.clientWidth, 240);
      const data = [
        buckets.map((bucket) => Date.parse(bucket.start) / 1000),
        ...spec.series.map((series) => buckets.map(series.value)),
      ];
      chart = new UPlot(
        {
          width: width(),
          height: 200,
          series: [{}, ...spec.series.map((series) => ({ label: series.label, stroke: series.color, width: 2 }))],
          axes: [{}, { label: spec.unit }],
          legend: { live: false },
        },
        data as never,
        element,
      );
      observer = new ResizeObserver(() => chart?.setSize({ width: width(), height: 200 }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [spec, buckets]);

  return (
    <figure class="chart">
      <figcaption>{spec.title}</figcaption>
      <div ref={container} class="chart-area" role="img" aria-label={`${spec.title} per interval; totals above`} />
    </figure>
  );
}
