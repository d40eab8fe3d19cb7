/** "23 h 59 min left", "4 min left", "expired": how long a decision may still be taken. */
export function timeLeft(expiresAt: string, now: number): string {
  const milliseconds = Date.parse(expiresAt) - now;
  if (!(milliseconds > 0)) return 'expired';
  const minutes = Math.floor(milliseconds / 60_000);
  if (minutes < 1) return 'less than a minute left';
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min left`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h left`;
}
