import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CalendarPage, Live } from '@/data/hooks';
import type { CalendarDoc } from '@/data/replica';
import { localDay } from '@/data/replication/today';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/** The upcoming entries "in the replica", in the hook's order; the hook answers `limit` of them. */
const replica = vi.hoisted(() => ({ upcoming: [] as CalendarDoc[], past: [] as CalendarDoc[], limits: [] as number[] }));

vi.mock('@/data/hooks/use-calendar', async () => {
  const { useMemo } = await import('react');
  const page = (all: CalendarDoc[], limit: number): Live<CalendarPage> => ({ data: { items: all.slice(0, limit), hasMore: all.length > limit }, loading: false });
  return {
    useUpcomingCalendar: (limit: number) => {
      replica.limits.push(limit);
      return useMemo(() => page(replica.upcoming, limit), [limit]);
    },
    usePastCalendar: (limit: number) => useMemo(() => page(replica.past, limit), [limit]),
  };
});
vi.mock('@/data/hooks/use-event-types', () => ({
  useEventTypes: () => ({ data: { '00000000-0000-4000-8000-0000000000e1': 'Health', '00000000-0000-4000-8000-0000000000e2': 'Activity' }, loading: false }),
}));

const day = (offset: number) => {
  const now = new Date();
  return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset));
};

let n = 0;
function entry(offset: number, title: string, times: [string, string] | null, extra: Partial<CalendarDoc['event']> = {}): CalendarDoc {
  n += 1;
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    updated_at: new Date().toISOString(),
    resident_id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
    start_date: day(offset),
    start_time: times?.[0] ?? null,
    end_date: day(offset),
    end_time: times?.[1] ?? null,
    event: { id, title, description: null, location: null, event_type_id: '00000000-0000-4000-8000-0000000000e1', ...extra },
    sort_key: `${day(offset)}T${times?.[0] ?? '00:00'}`,
    sync_state: 'synced',
    sync_message: null,
    sync_outbox_id: null,
  };
}

beforeEach(() => {
  n = 0;
  replica.limits = [];
  replica.past = [];
  replica.upcoming = [
    entry(0, 'Sports day', null),
    entry(0, 'Dentist check-up', ['10:30', '11:30'], { location: 'Smile Dental, High Street', description: 'Bring your <img src=x onerror=alert(1)> card' }),
    entry(1, 'Football training', ['10:00', '11:30'], { event_type_id: '00000000-0000-4000-8000-0000000000e2' }),
    // 22 more, one a day from the day after tomorrow: 25 in all.
    ...Array.from({ length: 22 }, (_, i) => entry(i + 2, `Event ${i + 1}`, ['17:00', '17:45'])),
  ];
  fakeFetch();
  setAccount(makeAccount());
});

const entries = () => document.querySelectorAll('.day__entries > li');
const weekdayDate = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December)( \d{4})?$/;

describe('calendar', () => {
  it('groups entries by day under Today, Tomorrow and dated headings, today highlighted', async () => {
    renderApp('/calendar');
    await screen.findByRole('heading', { level: 2, name: 'Today' });
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent ?? '');
    expect(headings.slice(0, 2)).toEqual(['Today', 'Tomorrow']);
    expect(headings[2]).toMatch(weekdayDate);
    expect(headings).toHaveLength(9); // the first 10 entries: 2 today, 1 tomorrow, then 7 days of one

    const today = screen.getByRole('region', { name: 'Today' });
    expect(today.classList.contains('day--today')).toBe(true);
    expect(today.querySelector('time[aria-current="date"]')?.getAttribute('datetime')).toBe(day(0));
    expect(screen.getByRole('region', { name: 'Tomorrow' }).classList.contains('day--today')).toBe(false);

    const todays = within(within(today).getByRole('list', { name: 'Today' })).getAllByRole('listitem');
    expect(todays).toHaveLength(2);
    expect(within(todays[0]!).getByRole('heading', { level: 3 }).textContent).toBe('Sports day');
    expect(todays[0]!.textContent).toContain('All day');
    expect(within(todays[1]!).getByRole('heading', { level: 3 }).textContent).toBe('Dentist check-up');
    expect(todays[1]!.textContent).toContain('10:30–11:30');
    expect(todays[1]!.querySelector('time')?.getAttribute('datetime')).toBe(`${day(0)}T10:30`);
    expect(todays[1]!.textContent).toContain('Health');
    expect(todays[1]!.textContent).toContain('Smile Dental, High Street');
    const tomorrow = within(screen.getByRole('region', { name: 'Tomorrow' })).getByRole('listitem');
    expect(tomorrow.textContent).toContain('Activity');
  });

  it('shows a description as text: markup in it is never turned into elements', async () => {
    const { container } = renderApp('/calendar');
    expect(await screen.findByText('Bring your <img src=x onerror=alert(1)> card')).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
  });

  it('shows 10 entries, 10 more after "Load more", and no button once everything is shown', async () => {
    const { user } = renderApp('/calendar');
    await screen.findByRole('heading', { level: 2, name: 'Today' });
    expect(entries()).toHaveLength(10);
    expect(replica.limits[0]).toBe(10);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(entries()).toHaveLength(20));
    expect(replica.limits).toContain(20);
    // Focus moves to the first new entry, so a keyboard or screen-reader user carries on from there.
    await waitFor(() => expect(document.activeElement).toBe(entries()[10]));
    expect(document.activeElement?.textContent).toContain('Event 8');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(entries()).toHaveLength(25));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('has no "Load more" when the hook says there is nothing more', async () => {
    replica.upcoming = replica.upcoming.slice(0, 7);
    renderApp('/calendar');
    await screen.findByRole('heading', { level: 2, name: 'Today' });
    expect(entries()).toHaveLength(7);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says "Nothing in your calendar yet." when there are no entries', async () => {
    replica.upcoming = [];
    renderApp('/calendar');
    expect(await screen.findByRole('heading', { level: 2, name: 'Nothing in your calendar yet.' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows past entries, most recent first, behind the Past toggle', async () => {
    replica.past = [entry(-1, 'Swimming', ['16:00', '17:00']), entry(-3, 'Cinema trip', null)];
    const { user } = renderApp('/calendar');
    await screen.findByRole('heading', { level: 2, name: 'Today' });
    await user.click(screen.getByRole('button', { name: 'Past' }));
    expect(screen.getByRole('button', { name: 'Past' }).getAttribute('aria-pressed')).toBe('true');
    const headings = (await screen.findAllByRole('heading', { level: 2 })).map((h) => h.textContent);
    expect(headings[0]).toBe('Yesterday');
    expect(headings[1]).toMatch(weekdayDate);
    expect(screen.getByText('Swimming')).toBeTruthy();
    expect(screen.queryByText('Sports day')).toBeNull();
  });
});
