import { useMemo, useRef, useState } from 'preact/hooks';
import { Loaded, useResource } from '../ui/resource.js';
import { downloadFile } from './download-file.js';
import { daysOf, getDailyUsage, lastThirtyDays, type DailyModelUsage, type DayRange } from './usage/requests.js';
import { UsageChart, type ChartSeries } from './usage/usage-chart.js';
import { usageCsv } from './usage/usage-csv.js';
import { modelLabel, UsageTable } from './usage/usage-table.js';

/**
 * Usage across the account's agents (GET /v1/metrics/usage/daily): messages
 * and tokens per day and per model over a range of days, as charts and a
 * table, and the table as a CSV file made in the browser from what is shown.
 */
export function UsageView(_props: object) {
  const [range, setRange] = useState<DayRange>(() => lastThirtyDays());
  const [usage, reload] = useResource((signal) => getDailyUsage(range, signal), [range.from, range.to]);

  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title" tabIndex={-1}>
        Usage
      </h1>
      <p class="hint">Messages and tokens of all your agents, per day (UTC) and per model.</p>
      <RangeForm range={range} onChange={setRange} />
      <Loaded
        resource={usage}
        what="usage"
        onRetry={reload}
        isEmpty={(data) => data.data.length === 0}
        empty={<p>No messages in this range.</p>}
      >
        {(data) => <UsageReport rows={data.data} range={range} />}
      </Loaded>
    </section>
  );
}

function RangeForm({ range, onChange }: { range: DayRange; onChange: (range: DayRange) => void }) {
  const from = useRef<HTMLInputElement>(null);
  const to = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const next = { from: from.current?.value ?? '', to: to.current?.value ?? '' };
    if (!next.from || !next.to || next.from > next.to) {
      setProblem('Choose a first day on or before the last day.');
      from.current?.focus();
      return;
    }
    setProblem(null);
    onChange(next);
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Date range">
      <div class="field">
        <label for="usage-from">First day</label>
        <input
          id="usage-from"
          ref={from}
          type="date"
          defaultValue={range.from}
          required
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={problem ? 'usage-range-problem' : undefined}
        />
      </div>
      <div class="field">
        <label for="usage-to">Last day</label>
        <input id="usage-to" ref={to} type="date" defaultValue={range.to} required />
      </div>
      <div class="actions">
        <button type="submit">Show</button>
      </div>
      {problem && (
        <p id="usage-range-problem" class="problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** Per model, one value a day (zero on days without traffic). */
function seriesOf(rows: DailyModelUsage[], days: string[], value: (row: DailyModelUsage) => number): ChartSeries[] {
  const index = new Map(days.map((day, position) => [day, position]));
  const byModel = new Map<string, number[]>();
  for (const row of rows) {
    const label = modelLabel(row.model);
    const values = byModel.get(label) ?? days.map(() => 0);
    const position = index.get(row.date);
    if (position !== undefined) values[position] = (values[position] ?? 0) + value(row);
    byModel.set(label, values);
  }
  return [...byModel].map(([label, values]) => ({ label, values }));
}

function UsageReport({ rows, range }: { rows: DailyModelUsage[]; range: DayRange }) {
  const days = useMemo(() => daysOf(range), [range.from, range.to]);
  const messages = useMemo(() => seriesOf(rows, days, (row) => row.messages), [rows, days]);
  const tokens = useMemo(() => seriesOf(rows, days, (row) => row.inputTokens + row.outputTokens), [rows, days]);
  const totals = rows.reduce(
    (sum, row) => ({
      messages: sum.messages + row.messages,
      tokens: sum.tokens + row.inputTokens + row.outputTokens,
    }),
    { messages: 0, tokens: 0 },
  );
  const fileName = `agentd-usage-${range.from}-to-${range.to}.csv`;
  return (
    <>
      <p role="status">
        {totals.messages} messages and {totals.tokens} tokens from {range.from} to {range.to}.
      </p>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => downloadFile(fileName, usageCsv(rows), 'text/csv')}>
          Download CSV
        </button>
      </div>
      <UsageChart title="Messages per day, by model" unit="messages" days={days} series={messages} />
      <UsageChart title="Tokens per day (input and output), by model" unit="tokens" days={days} series={tokens} />
      <UsageTable rows={rows} />
    </>
  );
}
