import type { DailyModelUsage } from './requests.js';

export const usageCsvColumns = [
  'date',
  'model',
  'agents',
  'messages',
  'failed_messages',
  'tool_calls',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'unpriced_messages',
] as const;

/** A field as RFC 4180 wants it: quoted when it holds a comma, quote or line break, quotes doubled. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows the view shows, as CSV (RFC 4180, CRLF line ends); deleted agents' usage has the model `(deleted)`. */
export function usageCsv(rows: DailyModelUsage[]): string {
  const lines = [usageCsvColumns.join(',')];
  for (const row of rows) {
    lines.push(
      [
        row.date,
        row.model ?? '(deleted)',
        row.agents,
        row.messages,
        row.failedMessages,
        row.toolCalls,
        row.inputTokens,
        row.outputTokens,
        row.costUsd,
        row.unpricedMessages,
      ]
        .map(field)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
