/** How long between two times, in words a person reads at a glance: "850 ms", "12.4 s", "3 min 5 s". */
export function durationOf(from: string | null, to: string | null): string {
  if (!from || !to) return '—';
  const milliseconds = Date.parse(to) - Date.parse(from);
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '—';
  if (milliseconds < 1000) return `${milliseconds} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function timeOf(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : '—';
}

/** A JSON value on one line, cut where a table cell would overflow. */
export function jsonLine(value: unknown, max = 160): string {
  const text = JSON.stringify(value) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
