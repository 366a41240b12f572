/**
 * Drafts on the device (src/data/drafts.ts): the sign-out warning counts every form started and not
 * sent, since signing out wipes them, and stores a form's waiting words before it counts; a screen
 * with a form per choice finds the one written in last; the files attached to a draft are kept
 * with it and go with it.
 */
import { firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  countDrafts,
  deleteDraft,
  draftFileId,
  draftHasContent,
  draftId,
  forgetDraftFile,
  keepDraftFile,
  newestDraft$,
  onFlushDrafts,
  readDraft,
  readDraftFile,
  saveDraft,
  type DraftFile,
} from '@/data/drafts';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { countUnsentOnDevice } from '@/data/unsent-on-device';
import { clearSession, setAccount } from '@/data/session-store';
import { wipeReplicaStep } from '@/data/wipe-steps';
import { account, jpegFile } from './entries-support';
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

  it('a save that waited for a replica across a sign-out stores nothing, not even into the same person’s next session', async () => {
    await closeReplica();
    setAccount(account); // signed in, the replica not open yet (a page just loaded)
    const saving = saveDraft('entry:journal:new', { description: 'typed before signing out', reaction: null });
    clearSession(); // "Sign out and delete them" while it waited
    setAccount(account); // and in again, as the same young person
    open = await openReplicaForAccount(account, site, replica);
    expect(await saving).toBe(false);
    expect(await readDraft('entry:journal:new')).toBeNull();
    clearSession();
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

describe('files kept with a draft', () => {
  const KEY = 'entry:journal:new';
  type WithFiles = { description: string; reaction: null; files: DraftFile[] };
  const photo = () => jpegFile('beach.jpg', 'the beach at sunset');
  const textOf = async (file: Blob) => new TextDecoder().decode(new Uint8Array(await file.arrayBuffer()));
  /** The ids of every draft file on the device. */
  const draftFileIds = async () => (await open.db.files.find().exec()).map((doc) => doc.primary).filter((id) => id.startsWith('draft-file:'));
  const keep = async (key: string, file: File) => (await keepDraftFile(key, file, file.name))!;
  /** What the device still holds of removed documents: RxDB keeps them as deleted rows (Hearth never purges). */
  const deletedRows = async (ids: string[]) => (await open.db.files.storageInstance.findDocumentsById(ids, true)).filter((row) => row._deleted);

  it('a photo comes back with its name, type and bytes, as the draft names it', async () => {
    const kept = await keep(KEY, photo());
    expect(kept).toMatchObject({ name: 'beach.jpg', mime: 'image/jpeg', size: photo().size });
    await saveDraft(KEY, { description: '', reaction: null, files: [kept] });

    const named = (await readDraft<WithFiles>(KEY))!.files;
    const back = await readDraftFile(KEY, named[0]!);
    expect([back?.name, back?.type]).toEqual(['beach.jpg', 'image/jpeg']);
    expect(await textOf(back!)).toContain('the beach at sunset');
    // Another draft's key finds nothing under this id.
    expect(await readDraftFile('entry:voice:new:a', kept)).toBeNull();
  });

  it('a file taken off the form is forgotten; the others stay', async () => {
    const beach = await keep(KEY, photo());
    const homework = await keep(KEY, new File(['%PDF-1.4 homework'], 'homework.pdf', { type: 'application/pdf' }));
    await forgetDraftFile(KEY, beach.id);
    expect(await readDraftFile(KEY, beach)).toBeNull();
    expect(await textOf((await readDraftFile(KEY, homework))!)).toBe('%PDF-1.4 homework');
    // Nothing of the photo is left in its deleted row.
    const [row] = await deletedRows([draftFileId(KEY, beach.id)]);
    expect(row?.data).toBeNull();
  });

  it('deleting the draft (posted, or the form emptied) deletes its files, and no other draft’s', async () => {
    const neighbours = ['entry:journal:new-b', 'entry:journal:newb', 'entry:journal'];
    const mine = [await keep(KEY, photo()), await keep(KEY, photo())];
    await saveDraft(KEY, { description: 'at the beach', reaction: null, files: mine });
    const theirs = await Promise.all(neighbours.map((key) => keep(key, photo())));
    expect(await draftFileIds()).toHaveLength(5);

    await deleteDraft(KEY);
    expect(await readDraft(KEY)).toBeNull();
    for (const file of mine) expect(await readDraftFile(KEY, file)).toBeNull();
    expect(await draftFileIds()).toHaveLength(3);
    // Nothing of the words or the photos is left in their deleted rows.
    const rows = await deletedRows([draftId(KEY), ...mine.map((file) => draftFileId(KEY, file.id))]);
    expect(rows.map((row) => row.data)).toEqual([null, null, null]);
    for (const [i, key] of neighbours.entries()) expect(await readDraftFile(key, theirs[i]!)).not.toBeNull();
  });

  it('a draft with a file counts once in the sign-out warning, whatever the file holds', async () => {
    // These three bytes are "1234" in base64: JSON, were the file read as a draft.
    const kept = await keep(KEY, new File([new Uint8Array([0xd7, 0x6d, 0xf8])], 'tiny.png', { type: 'image/png' }));
    expect(await countDrafts(open)).toBe(0);
    await saveDraft(KEY, { description: '', reaction: null, files: [kept] });
    expect(await countDrafts(open)).toBe(1);
  });

  it('the sign-out wipe leaves no draft file', async () => {
    const kept = await keep(KEY, photo());
    await saveDraft(KEY, { description: '', reaction: null, files: [kept] });
    expect(await draftFileIds()).toHaveLength(1);

    await wipeReplicaStep(replica).run({ userId: account.user.id, site });
    open = await openReplicaForAccount(account, site, replica);
    expect(await draftFileIds()).toEqual([]);
    expect(await readDraftFile(KEY, kept)).toBeNull();
    expect(await readDraft(KEY)).toBeNull();
  });
});
