import type { DailyModelUsage } from './requests.js';

export const modelLabel = (model: string | null) => model ?? 'Deleted agents';

/** Dollars to the cent, and to the micro-dollar below a cent, where small replies' costs are. */
export const formatCost = (dollars: number) =>
  dollars >= 0.01 || dollars === 0 ? dollars.toFixed(2) : dollars.toFixed(6);

/** Replies of models without a price cost 0 (the server says so): the cell says the total is short. */
const costNote = (row: DailyModelUsage) =>
  row.unpricedMessages > 0 ? `${row.unpricedMessages} messages of a model without a price are not counted` : undefined;

/** The rows the charts draw and the CSV holds: one per day and model with traffic. */
export function UsageTable({ rows }: { rows: DailyModelUsage[] }) {
  return (
    <table class="usage">
      <caption>Usage per day and model</caption>
      <thead>
        <tr>
          <th scope="col">Day (UTC)</th>
          <th scope="col">Model</th>
          <th scope="col">Agents</th>
          <th scope="col">Messages</th>
          <th scope="col">Failed</th>
          <th scope="col">Tool calls</th>
          <th scope="col">Input tokens</th>
          <th scope="col">Output tokens</th>
          <th scope="col">Cost (USD)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.date} ${row.model}`}>
            <th scope="row">{row.date}</th>
            <td>{modelLabel(row.model)}</td>
            <td class="number">{row.agents}</td>
            <td class="number">{row.messages}</td>
            <td class="number">{row.failedMessages}</td>
            <td class="number">{row.toolCalls}</td>
            <td class="number">{row.inputTokens}</td>
            <td class="number">{row.outputTokens}</td>
            <td class="number" title={costNote(row)}>
              {formatCost(row.costUsd)}
              {row.unpricedMessages > 0 ? ' *' : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
