import { longDate } from '@/lib/en-gb';

/** "Friday 20 November 2026" (en-GB) from a task date yyyy-MM-dd; the text itself if unreadable. */
export function formatTaskDate(date: string): string {
  const parsed = new Date(`${date}T12:00:00`);
  if (Number.isNaN(parsed.getTime())) return date;
  // No comma after the weekday (Intl's en-GB long date with a year has one).
  return `${longDate(parsed, { weekday: true, year: false })} ${parsed.getFullYear()}`;
}

/** The category page's address for a form name (URL-encoded: names may hold spaces, slashes, ampersands). */
export const categoryPath = (name: string): string => `/objectives/category/${encodeURIComponent(name)}`;

export const objectivePath = (logId: string): string => `/objectives/${encodeURIComponent(logId)}`;

export const commentCount = (n: number): string => (n === 1 ? '1 comment' : `${n} comments`);

export const commentEditPath = (logId: string, commentId: string): string =>
  `/objectives/${encodeURIComponent(logId)}/comment/edit/${encodeURIComponent(commentId)}`;

export const successPath = (logId: string): string => `/objectives/${encodeURIComponent(logId)}/success`;
