import { describe, expect, it } from 'vitest';
import { changedPushMessage, pushMessageSchema, pushUrls, pushUrlSchema } from '@/contract/push';
import { isPushUrl, PUSH_FALLBACK_URL, readPushNotice } from '@/contract/push-notice';
import { SYNC_TOPICS } from '@/contract/sync';

/**
 * The worker reads pushes without zod (src/contract/push-notice.ts): it must accept exactly what the
 * contract's schema accepts, and fall back to the dashboard and the neutral text for anything else.
 */
const id = '3f2b8c1e-7d4a-4e5b-9c6d-0a1b2c3d4e5f';

const urls = [
  pushUrls.entryThread('journal', id),
  pushUrls.entryThread('voice', id),
  pushUrls.objective(id),
  pushUrls.rewardHistory,
  '/dashboard',
  '/',
  '/a%20b',
  // refused
  '',
  'dashboard',
  '//evil.example/x',
  '/\\evil.example',
  'https://evil.example/',
  'javascript:alert(1)',
  '/objectives/x?from=push',
  '/objectives/x#top',
  '/objectives/ x',
  '/objectives/\u0000',
  `/${'a'.repeat(300)}`,
  `/${'a'.repeat(299)}`,
  42,
  null,
];

describe('reading a push without zod', () => {
  it.each(urls.map((u) => [JSON.stringify(u).slice(0, 60), u]))('isPushUrl agrees with pushUrlSchema on %s', (_, url) => {
    expect(isPushUrl(url)).toBe(pushUrlSchema.safeParse(url).success);
  });

  it('takes everything from what the server sends (changedPushMessage), for every kind of push', () => {
    for (const [collections, url] of [
      [['feedback', 'journal'], pushUrls.entryThread('journal', id)],
      [['feedback', 'voice'], pushUrls.entryThread('voice', id)],
      [['tasks'], pushUrls.objective(id)],
      [['reward_history', 'points', 'resident'], pushUrls.rewardHistory],
    ] as const) {
      const message = pushMessageSchema.parse(changedPushMessage({ collections: [...collections], url }, 'Hearth'));
      expect(readPushNotice(JSON.parse(JSON.stringify(message)))).toEqual({
        topics: collections,
        url,
        named: true,
        title: 'Hearth',
        body: 'Something new in Hearth',
      });
    }
  });

  it('keeps the product name the server chose', () => {
    const notice = readPushNotice(changedPushMessage({ collections: ['tasks'] }, 'Oak Path'));
    expect([notice.title, notice.body, notice.url, notice.named]).toEqual(['Oak Path', 'Something new in Oak Path', PUSH_FALLBACK_URL, false]);
  });

  it('knows every topic the server publishes, and drops names it does not know', () => {
    expect(readPushNotice({ type: 'changed', collections: [...SYNC_TOPICS] }).topics).toEqual([...SYNC_TOPICS]);
    expect(readPushNotice({ type: 'changed', collections: ['tasks', 'letters', 7, 'tasks'] }).topics).toEqual(['tasks']);
  });

  it.each([
    ['no payload', null],
    ['not an object', 'changed'],
    ['another type', { type: 'hello', collections: ['tasks'], url: '/objectives/x', title: 'Look!', body: 'Read me' }],
    ['no topic it knows', { type: 'changed', collections: ['letters'] }],
    ['an old worker payload (issue 3)', { type: 'changed', collections: [] }],
  ])('%s: re-sync everything, neutral text, the dashboard', (_, data) => {
    expect(readPushNotice(data)).toEqual({ topics: null, url: '/dashboard', named: false, title: 'Hearth', body: 'Something new in Hearth' });
  });

  it('a url from elsewhere, or too long text, falls back (never shown, never opened)', () => {
    const notice = readPushNotice({ type: 'changed', collections: ['tasks'], url: '//evil.example/x', title: 'x'.repeat(61), body: 'y'.repeat(121) });
    expect(notice).toEqual({ topics: ['tasks'], url: '/dashboard', named: false, title: 'Hearth', body: 'Something new in Hearth' });
    expect(pushMessageSchema.safeParse({ type: 'changed', collections: ['tasks'], url: '//evil.example/x' }).success).toBe(false);
  });
});
