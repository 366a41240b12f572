/**
 * Drafts on the device (src/data/drafts.ts): the sign-out warning counts every form started and not
 * sent, since signing out wipes them, and stores a form's waiting words before it counts; a screen
 * with a form per choice finds the one written in last.
 */
import { firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countDrafts, draftHasContent, newestDraft$, onFlushDrafts, readDraft, saveDraft } from '@/data/drafts';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { countUnsentOnDevice } from '@/data/unsent-on-device';
import { account } from './entries-support';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { freshStore } from './outbox-support';
import { waitUntil } from '../support/wait';

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
let open: OpenReplica;
let site: string;

beforeEach(async () => {
  vi.stubGlobal('navigator', { onLine: false });
  freshStore();
  site = uniqueName('site');
  open = await openReplicaForAccount(account, site, replica);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await closeReplica();
});

describe('the sign-out warning counts drafts', () => {
  it('a document form, a review, an entry and a reply started and not sent: four; an emptied form: none', async () => {
    await saveDraft('document:00000000-0000-4000-8000-000000000001', { answers: { feelings: 'Three paragraphs about my week' }, files: [] });
    await saveDraft('review:00000000-0000-4000-8000-000000000003', { answers: { how_it_went: 'It went really well' }, files: [] });
    await saveDraft('entry:journal:new', { description: 'Today was hard', reaction: null });
    await saveDraft('reply:voice:00000000-0000-4000-8000-000000000004', { comment: '', reaction: '😀' });
    await saveDraft('document:00000000-0000-4000-8000-000000000002', { answers: { feelings: '   ' }, files: [] });
    expect(await countDrafts(open)).toBe(4);
    expect(await countUnsentOnDevice()).toEqual({ pending: 0, held: 0, failed: 0, notQueued: 0, drafts: 4 });
  });

  it('stores what a form was still waiting to store before counting', async () => {
    const unregister = onFlushDrafts(() => saveDraft('entry:journal:new', { description: 'typed a moment ago', reaction: null }));
    try {
      expect((await countUnsentOnDevice()).drafts).toBe(1);
    } finally {
      unregister();
    }
  });
});

describe('drafts', () => {
  it('signed out with no replica open, a form closing stores nothing, not even into the next one to open', async () => {
    await closeReplica();
    const saving = saveDraft('entry:journal:new', { description: 'typed as the session ended', reaction: null });
    open = await openReplicaForAccount(account, site, replica);
    expect(await saving).toBe(false);
    expect(await readDraft('entry:journal:new')).toBeNull();
  });

  it('hold something when they hold words, a number, a yes or a list with any of those', () => {
    expect([{ a: ' x ' }, { n: 0 }, { b: true }, [[null, 'y']], { deep: { list: [{ t: 'z' }] } }].map(draftHasContent)).toEqual([true, true, true, true, true]);
    expect([{ a: '  ' }, { b: false }, { n: null }, [], {}, { list: [{ t: '' }] }, null].map(draftHasContent)).toEqual([false, false, false, false, false, false, false]);
  });

  const nextMillisecond = () => {
    const now = Date.now();
    return waitUntil(() => Date.now() > now);
  };

  it('the newest of several that hold something is the one written in last', async () => {
    const keys = ['entry:voice:new:a', 'entry:voice:new:b', 'entry:voice:new:c'];
    await saveDraft(keys[0]!, { description: 'first', reaction: null });
    await nextMillisecond(); // updated_at is to the millisecond
    await saveDraft(keys[1]!, { description: 'second', reaction: null });
    await saveDraft('entry:journal:new', { description: 'not one of them', reaction: null });
    expect(await firstValueFrom(newestDraft$(open, keys))).toBe(keys[1]);
    await nextMillisecond();
    await saveDraft(keys[0]!, { description: '', reaction: null });
    expect(await firstValueFrom(newestDraft$(open, keys))).toBe(keys[1]);
    await saveDraft(keys[1]!, { description: ' ', reaction: null });
    expect(await firstValueFrom(newestDraft$(open, keys))).toBeNull();
  });
});
