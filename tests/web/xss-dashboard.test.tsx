import { act } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryKind } from '@/contract/entry-kind';
import type { CalendarPage, FeedbackCounts, Live } from '@/data/hooks';
import type { CalendarDoc, FeedbackDoc, ResidentDoc, RosterDoc } from '@/data/replica';
import type * as RosterHooks from '@/data/hooks/use-todays-roster';
import { localDay } from '@/data/replication/today';
import { setAccount } from '@/data/session-store';
import { ALL_PAYLOADS, XSS_VECTORS, type XssVector } from '../support/xss-vectors';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { checksMade, installMarker, shown, sweepScreen } from './support/xss-scan';

/**
 * Issue 12's XSS sweep, the dashboard, the feedback page and the calendar: staff replies (the
 * comment, who wrote it, the voice category, the young person's own excerpt), the rota's staff
 * names, the key worker, the home's name and the preferred name staff keep, and the appointments
 * staff add (title, place, description, type). Every vector of tests/support/xss-vectors.ts in every
 * field, through the real routes and providers; the replica is a live fake, as in the screens' own tests.
 */
const replica = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  return {
    listeners,
    resident: { data: null, loading: false } as { data: unknown; loading: boolean },
    feedback: { data: [] as unknown[], loading: false },
    counts: { data: { journal: 0, voice: 0 }, loading: false },
    roster: { data: [] as unknown[], loading: false },
    upcoming: [] as unknown[],
    past: [] as unknown[],
    types: {} as Record<string, string>,
    setFeedback(items: unknown[]) {
      const counts = { journal: 0, voice: 0 } as Record<string, number>;
      for (const item of items as { type: string }[]) counts[item.type] = (counts[item.type] ?? 0) + 1;
      this.feedback = { data: items, loading: false };
      this.counts = { data: counts as { journal: number; voice: number }, loading: false };
      listeners.forEach((l) => l());
    },
  };
});

vi.mock('@/data/hooks/use-feedback', async () => {
  const { useSyncExternalStore } = await import('react');
  const subscribe = (listener: () => void) => {
    replica.listeners.add(listener);
    return () => replica.listeners.delete(listener);
  };
  return {
    useFeedback: () => useSyncExternalStore(subscribe, () => replica.feedback) as Live<FeedbackDoc[]>,
    useFeedbackCounts: () => useSyncExternalStore(subscribe, () => replica.counts) as Live<FeedbackCounts>,
  };
});
vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: () => replica.resident as Live<ResidentDoc | null> }));
vi.mock('@/data/hooks/use-todays-roster', async (importOriginal) => ({
  ...(await importOriginal<typeof RosterHooks>()),
  useTodaysRoster: () => replica.roster as Live<RosterDoc[]>,
}));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));
vi.mock('@/data/hooks/use-calendar', async () => {
  const { useMemo } = await import('react');
  // Every entry at once (the screen's own test checks the paging).
  const page = (all: unknown[]): Live<CalendarPage> => ({ data: { items: all as CalendarDoc[], hasMore: false }, loading: false });
  return {
    useUpcomingCalendar: () => useMemo(() => page(replica.upcoming), []),
    usePastCalendar: () => useMemo(() => page(replica.past), []),
  };
});
vi.mock('@/data/hooks/use-event-types', () => ({ useEventTypes: () => ({ data: replica.types, loading: false }) }));

const V = XSS_VECTORS;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

/** A staff reply waiting for the young person, every text of it the vector. */
function feedback(vector: XssVector, type: EntryKind): FeedbackDoc {
  const n = vector.id * 10 + (type === 'voice' ? 5 : 0);
  const creator = { id: uuid(n + 1), first_name: vector.payload, last_name: 'Staff', has_photo: false };
  return {
    id: uuid(n),
    updated_at: hoursAgo(vector.id),
    type,
    resident_id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
    entry_id: uuid(n + 2),
    comment_id: uuid(n + 3),
    count: 1,
    awaiting_resident_response: true,
    locked_at: null,
    reaction: null,
    entry: { id: uuid(n + 2), excerpt: vector.payload, created_at: hoursAgo(vector.id + 1) },
    category: type === 'voice' ? { id: uuid(n + 4), name: vector.payload } : null,
    latest_comment: { id: uuid(n + 3), comment: vector.payload, created_at: hoursAgo(vector.id), creator },
    ...sync,
  };
}

const feedbackFields = (vectors: readonly XssVector[], within = '') => [
  { field: 'staff reply', selector: `${within} .reply__comment`, vectors, max: 160 },
  { field: 'staff name on a reply', selector: `${within} .reply__who`, vectors },
  { field: 'the young person’s excerpt', selector: `${within} .reply__entry`, vectors, max: 80 },
];

let marker: ReturnType<typeof installMarker>;
beforeEach(() => {
  marker = installMarker();
  const home = { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: ALL_PAYLOADS };
  replica.resident = {
    data: {
      id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
      kind: 'details',
      updated_at: hoursAgo(1),
      user_id: '6f1c2b9e-3a41-4c8e-9d2f-1b7a5e3c9d10',
      home_id: home.id,
      home,
      first_name: 'Samuel',
      last_name: 'Jones',
      preferred_name: ALL_PAYLOADS,
      date_of_birth: null,
      reward_points: 120,
      key_worker: { id: uuid(1), first_name: ALL_PAYLOADS, last_name: 'Staff', has_photo: false },
      app_settings: { journal_colour: 'sky', journal_paper: 'lined', theme: 'fun' },
      journal_enabled: 1,
      voice_enabled: 1,
      rewards_enabled: 1,
      ...sync,
    } satisfies ResidentDoc,
    loading: false,
  };
  replica.roster = {
    data: V.map((v) => ({ id: uuid(5000 + v.id), updated_at: hoursAgo(0), home_id: home.id, user_id: uuid(6000 + v.id), shift_date: '2024-01-01', starts_at: '07:00', ends_at: '15:00', user: { id: uuid(6000 + v.id), first_name: v.payload, last_name: 'Staff', has_photo: false }, ...sync }) satisfies RosterDoc),
    loading: false,
  };
  replica.setFeedback([]);
  fakeFetch();
  setAccount(makeAccount({ flags: { rewards_enabled: 1 } }));
});
afterEach(() => marker.remove());
afterAll(() => console.info(`xss-dashboard: ${checksMade()} vector × field × screen checks`));

const clean = { ran: [], injected: [], notShownAsText: [] };
const main = () => document.querySelector('main')!;

describe('dashboard', () => {
  it('the greeting, the home, the key worker and the rota (one member of staff per vector) are text', async () => {
    renderApp('/dashboard');
    await shown('.roster__name');
    await shown('.details__person');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'preferred name (greeting)', selector: 'h1', vectors: V },
        { field: 'home name', selector: '.details__row:first-child dd', vectors: V },
        { field: 'key worker name', selector: '.details__person', vectors: V },
        { field: 'staff name on the rota', selector: '.roster__name', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('"New replies": every reply, five at a time as the panel shows them, is text', async () => {
    renderApp('/dashboard');
    await shown('#replies-title');
    const panel = () => main().querySelector('.dash-card--replies')!;
    for (let i = 0; i < V.length; i += 5) {
      const vectors = V.slice(i, i + 5);
      await act(async () => replica.setFeedback(vectors.map((v) => feedback(v, v.id % 2 ? 'voice' : 'journal'))));
      expect(await sweepScreen(marker, panel(), feedbackFields(vectors), { settleMs: 0 }), `replies ${i + 1} to ${i + vectors.length}`).toEqual(clean);
    }
  });
});

describe('/feedback', () => {
  it('every journal and voice reply (one of each per vector) is text, voice categories too', async () => {
    replica.setFeedback(V.flatMap((v) => [feedback(v, 'journal'), feedback(v, 'voice')]));
    renderApp('/feedback');
    await shown('.reply__comment');
    expect(
      await sweepScreen(marker, main(), [
        ...feedbackFields(V, '#feedback-journal-title ~ ul'),
        ...feedbackFields(V, '#feedback-voice-title ~ ul'),
        { field: 'voice category on a reply', selector: '#feedback-voice-title ~ ul .reply__meta', vectors: V },
      ]),
    ).toEqual(clean);
  });
});

describe('/calendar', () => {
  const day = (offset: number) => {
    const now = new Date();
    return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset));
  };
  const entry = (vector: XssVector, offset: number): CalendarDoc => {
    const id = uuid(7000 + vector.id + (offset < 0 ? 500 : 0));
    const type = uuid(8000 + vector.id);
    return {
      id,
      updated_at: hoursAgo(0),
      resident_id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
      start_date: day(offset),
      start_time: '10:00',
      end_date: day(offset),
      end_time: '11:00',
      event: { id, title: vector.payload, description: vector.payload, location: vector.payload, event_type_id: type },
      sort_key: `${day(offset)}T10:00`,
      ...sync,
    };
  };

  it('every appointment’s title, place, description and type (one appointment per vector), coming up and past, is text', async () => {
    replica.upcoming = V.map((v) => entry(v, Math.floor(v.id / 10)));
    replica.past = V.map((v) => entry(v, -1 - Math.floor(v.id / 10)));
    replica.types = Object.fromEntries(V.map((v) => [uuid(8000 + v.id), v.payload]));
    const { user } = renderApp('/calendar');
    await shown('.entry__title');
    const fields = [
      { field: 'appointment title', selector: '.entry__title', vectors: V },
      { field: 'appointment place', selector: '.entry__location', vectors: V },
      { field: 'appointment description', selector: '.entry__description', vectors: V },
      { field: 'appointment type', selector: '.entry__type', vectors: V },
    ];
    expect(await sweepScreen(marker, main(), fields)).toEqual(clean);
    await user.click(main().querySelectorAll<HTMLButtonElement>('.segmented__option')[1]!);
    await shown('h2', 'Yesterday');
    expect(await sweepScreen(marker, main(), fields)).toEqual(clean);
  });
});
