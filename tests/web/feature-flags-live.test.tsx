/**
 * Staff switch the journal off while the young person has it open (docs/decisions.md "Staff switch
 * a young person's features"): when the record in the replica says so, the screen gives way to the
 * flag guard's page, as a navigation to it would, the nav item goes, and the words being written stay
 * as a draft; switched on again, the item and the screen come back with the words. The record reaches
 * the account through src/data/replication/follow-flags.ts, here over a record the test emits (the
 * real replica and server: tests/data/feature-flags-sync.test.ts); drafts live in a map
 * (./support/fake-drafts.ts).
 */
import { act, screen } from '@testing-library/react';
import { BehaviorSubject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEPT_DRAFT_NOTE } from '@/components/kept-draft-note';
import type { OpenReplica } from '@/data/replica/replica-store';
import { followFlags } from '@/data/replication/follow-flags';
import { setAccount } from '@/data/session-store';
import { newJournalDraftKey } from '@/entries/data/draft-keys';
import { waitUntil } from '../support/wait';
import { makeAccount } from './support/account';
import { emojis, STAFF } from './support/entry-fixtures';
import { fakeDrafts } from './support/fake-drafts';
import { fakeFetch } from './support/fake-fetch';
import { fakeReplica } from './support/fake-replica';
import { renderApp } from './support/render-app';

vi.mock('@/data/hooks/use-draft', async () => (await import('./support/fake-drafts')).draftHooks);
vi.mock('@/entries/hooks/use-entries', async () => (await import('./support/fake-replica')).entryHooks);
vi.mock('@/data/hooks/use-associated-users', () => ({ useAssociatedUsers: () => ({ data: [STAFF], loading: false }) }));
vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: () => ({ data: { key_worker: STAFF }, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

const WORDS = 'Today was hard and I want to write it down';
const account = makeAccount({ flags: { journal_enabled: 1 } });
const residentId = account.user.resident!.id;

const details = (updatedAt: string, journal: 0 | 1) => ({ id: residentId, kind: 'details', updated_at: updatedAt, journal_enabled: journal, voice_enabled: 1, rewards_enabled: 0 });
/** The young person's record in the replica, as `db.resident.findOne(id).$` gives it; `parked`: a pulled copy waiting beside a change of theirs. */
const record = (updatedAt: string, journal: 0 | 1, parked: Record<string, unknown> | null = null) => ({
  toJSON: () => ({ ...details(updatedAt, journal), sync_state: parked ? 'pending' : 'synced', sync_server: parked }),
});
let records: BehaviorSubject<ReturnType<typeof record> | null>;
let stopFollowing: () => void = () => undefined;

beforeEach(() => {
  fakeDrafts.reset();
  fakeReplica.reset();
  fakeReplica.set({ emojis: emojis() });
  fakeFetch();
  setAccount(account);
  records = new BehaviorSubject<ReturnType<typeof record> | null>(record('2026-03-01T10:00:00.000000Z', 1));
  const replica = {
    db: { resident: { findOne: () => ({ $: records, exec: async () => null }) } },
    identity: { userId: account.user.id, site: null, residentId, homeId: null, homeIds: [] },
  } as unknown as OpenReplica;
  stopFollowing = followFlags(replica);
});
afterEach(() => stopFollowing());

const journalBox = () => screen.findByLabelText('What’s on your mind?') as Promise<HTMLTextAreaElement>;
const navJournal = () => screen.queryByRole('link', { name: 'Journal' });
const NOT_ON = 'This part of Hearth is not switched on for you';

describe('the journal switched off and on while it is open', () => {
  it('gives way to the flag guard, the nav item goes, the words stay as a draft; switched on, both come back with the words', async () => {
    const { user, router } = renderApp('/journal');
    await user.type(await journalBox(), WORDS);
    expect(navJournal()).toBeTruthy();

    act(() => records.next(record('2026-03-02T09:00:00.000000Z', 0)));
    expect(await screen.findByRole('heading', { level: 1, name: NOT_ON })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to dashboard' })).toBeTruthy();
    expect(screen.queryByLabelText('What’s on your mind?')).toBeNull();
    expect(navJournal()).toBeNull();
    expect(router.state.location.pathname).toBe('/journal');
    // The form closed: what it held is stored at once (src/data/hooks/use-kept-draft.ts).
    await waitUntil(() => expect((fakeDrafts.get(newJournalDraftKey) as { description?: string } | null)?.description).toBe(WORDS));

    act(() => records.next(record('2026-03-03T09:00:00.000000Z', 1)));
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    expect((await journalBox()).value).toBe(WORDS);
    expect(navJournal()).toBeTruthy();
  });

  it('a copy of the record older than the one the flags came from changes nothing', async () => {
    renderApp('/journal');
    await journalBox();
    act(() => records.next(record('2026-03-02T09:00:00.000000Z', 0)));
    await screen.findByRole('heading', { level: 1, name: NOT_ON });

    act(() => records.next(record('2026-03-01T12:00:00.000000Z', 1)));
    await act(async () => undefined);
    expect(screen.getByRole('heading', { level: 1, name: NOT_ON })).toBeTruthy();
    expect(navJournal()).toBeNull();
  });

  it("a copy pulled while a change of the young person's own waits (their app settings) counts: it is the newer one", async () => {
    renderApp('/journal');
    await journalBox();
    act(() => records.next(record('2026-03-01T10:00:00.000000Z', 1, details('2026-03-02T09:00:00.000000Z', 0))));
    expect(await screen.findByRole('heading', { level: 1, name: NOT_ON })).toBeTruthy();
    expect(navJournal()).toBeNull();
  });
});
