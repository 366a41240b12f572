const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short' });

/** "just now", "5 minutes ago", "yesterday", "2 days ago"… (Intl: no date library in the bundle). */
export function relativeTimeText(iso: string, now: number = Date.now()): string {
  const elapsed = now - Date.parse(iso);
  if (!Number.isFinite(elapsed)) return '';
  if (elapsed < 60_000) return 'just now';
  for (const [unit, size] of units) {
    if (elapsed >= size) return relative.format(-Math.floor(elapsed / size), unit);
  }
  return 'just now';
}

/** A past moment as friendly relative text, with the exact date for machines and on hover. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const date = new Date(iso);
  const exact = Number.isNaN(date.getTime()) ? undefined : absolute.format(date);
  return (
    <time dateTime={iso} title={exact} className={className}>
      {relativeTimeText(iso)}
    </time>
  );
}
