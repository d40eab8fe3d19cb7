/** How long between two times, in words a person reads at a glance: "850 ms", "12.4 s", "3 min 5 s". */
export function durationOf(from: string | null, to: string | null): string {
  if (!from || !to) return '—';
  return millisecondsText(Date.parse(to) - Date.parse(from));
}

/** A length of time given in milliseconds, as durationOf words it. */
export function millisecondsText(milliseconds: number | null): string {
  if (milliseconds === null || !Number.isFinite(milliseconds) || milliseconds < 0) return '—';
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
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

/** A count for people: digits grouped as the reader's locale groups them. */
export function countText(value: number): string {
  return value.toLocaleString();
}

/** Text on one line, cut to `max` characters. */
export function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
