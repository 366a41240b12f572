import { longDateTime, relativeTimeText } from '@/lib/en-gb';

/** A past moment as friendly relative text, with the exact date for machines and on hover. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const date = new Date(iso);
  const exact = Number.isNaN(date.getTime()) ? undefined : longDateTime(date);
  return (
    <time dateTime={iso} title={exact} className={className}>
      {relativeTimeText(iso)}
    </time>
  );
}
