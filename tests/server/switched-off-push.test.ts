import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commentSchema } from '../../src/contract/comments';
import { pageSchema } from '../../src/contract/sync';
import { voiceCategoriesPageSchema } from '../../src/contract/entries';
import type { EntryKind } from '../../src/contract/entry-kind';
import { entryPaths, paths } from '../../src/contract/paths';
import type { FeatureFlag } from '../../src/contract/residents';
import type { PushSender } from '../../server/lib/push-sender';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * A staff reply in a journal (voice) that staff switched off for the young person is stored and
 * syncs, but sends them no push: it would open a screen the app blocks (docs/decisions.md "Staff
 * switch a young person's features"). Switched on again, a reply pushes as before. Through the API:
 * carer.ali switches Jamie's features with the staff endpoint; pushes are seen by a fake push service.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;

/** Every delivery, as the push service would receive it. */
const sent: { endpoint: string; message: { url?: string; collections?: string[] } }[] = [];
const fakeSender: PushSender = async (target, payload) => {
  sent.push({ endpoint: target.endpoint, message: JSON.parse(payload) as { url?: string; collections?: string[] } });
  return { statusCode: 201 };
};

const entry = {} as Record<EntryKind, string>;

beforeAll(async () => {
  server = await startTestServer();
  server.app.pushSender = fakeSender;
  ids = await demoIds(server);
  [jamie, ali] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali')]);
  const subscribed = await jamie.post(`/api${paths.pushSubscribe.build()}`, {
    user_id: ids.user['demo/jamie'],
    subscription: { endpoint: 'https://fcm.googleapis.com/fcm/send/jamie-phone-4601', expirationTime: null, keys: { p256dh: 'p256-4601', auth: 'auth-4601' } },
  });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
  const categories = voiceCategoriesPageSchema.parse((await jamie.get(`/api${paths.voiceCategories.build()}`)).body).data;
  for (const kind of ['journal', 'voice'] as const) {
    const created = await jamie.post(`/api${entryPaths[kind].entries.build()}`, {
      description: `Push check: my ${kind} entry`,
      shared_with: [ids.user['demo/carer.ali']],
      ...(kind === 'voice' ? { category_id: categories[0]!.id } : {}),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    entry[kind] = (created.body as { data: { id: string } }).data.id;
  }
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.app.push.settled();
  sent.length = 0;
});

async function switchJamie(flags: Partial<Record<FeatureFlag, 0 | 1>>) {
  const res = await ali.put(`/api${paths.residentFeatures.build(ids.resident['demo/jamie']!)}`, flags);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** carer.ali replies in Jamie's thread; resolves once every push it caused has been delivered. */
async function aliReplies(kind: EntryKind, comment: string) {
  const res = await ali.post(`/api${entryPaths[kind].comments.build()}`, { entry_id: entry[kind], comment });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await server.app.push.settled();
}

async function jamiesThread(kind: EntryKind): Promise<string[]> {
  const res = await jamie.get(`/api${entryPaths[kind].entryComments.build(entry[kind])}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return pageSchema(commentSchema).parse(res.body).data.map((c) => c.comment ?? '');
}

describe('a staff reply on a switched-off journal or voice', () => {
  it('journal off: the reply is stored and Jamie reads it, but no push; his voice, still on, pushes', async () => {
    await switchJamie({ journal_enabled: 0 });
    await aliReplies('journal', 'Journal off: still here for you');
    expect(sent).toEqual([]);
    expect(await jamiesThread('journal')).toContain('Journal off: still here for you');

    await aliReplies('voice', 'Voice still on');
    expect(sent.map((s) => s.message.url)).toEqual([`/voice/comments/${entry.voice}`]);
  });

  it('journal on again: a reply pushes to the thread', async () => {
    await switchJamie({ journal_enabled: 1 });
    await aliReplies('journal', 'Journal on again');
    expect(sent).toEqual([
      { endpoint: 'https://fcm.googleapis.com/fcm/send/jamie-phone-4601', message: expect.objectContaining({ collections: ['feedback', 'journal'], url: `/entries/comments/${entry.journal}` }) },
    ]);
    expect(await jamiesThread('journal')).toEqual(expect.arrayContaining(['Journal off: still here for you', 'Journal on again']));
  });

  it('voice off: no push for a voice reply, while the journal, on, pushes', async () => {
    await switchJamie({ voice_enabled: 0 });
    await aliReplies('voice', 'Voice off: still listening');
    expect(sent).toEqual([]);
    expect(await jamiesThread('voice')).toContain('Voice off: still listening');

    await aliReplies('journal', 'Journal still on');
    expect(sent.map((s) => s.message.url)).toEqual([`/entries/comments/${entry.journal}`]);
  });
});

describe('a decision on a reward exchange while rewards are switched off', () => {
  async function jamieExchanges(): Promise<string> {
    const made = await ali.post(`/api${paths.homeRewards.build(ids.home['Willow House']!)}`, { name: `Cinema ${Date.now()}`, points: 1 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const rewardId = (made.body as { data: { id: string } }).data.id;
    const res = await jamie.post(`/api${paths.rewardExchange.build(ids.resident['demo/jamie']!, rewardId)}`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { data: { id: string } }).data.id;
  }

  async function aliDecides(exchangeId: string, decision: 'approve' | 'deny') {
    const route = decision === 'approve' ? paths.rewardExchangeApprove : paths.rewardExchangeDeny;
    const res = await ali.post(`/api${route.build(exchangeId)}`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await server.app.push.settled();
  }

  it('is made and recorded, with no push; switched on again, a decision pushes to the history', async () => {
    await switchJamie({ rewards_enabled: 1 });
    const first = await jamieExchanges();
    const second = await jamieExchanges();
    await switchJamie({ rewards_enabled: 0 });
    sent.length = 0;
    await aliDecides(first, 'approve');
    expect(sent).toEqual([]);
    const history = await jamie.get(`/api${paths.rewardsHistory.build(ids.resident['demo/jamie']!)}?per_page=100`);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect((history.body as { data: { id: string; status: string }[] }).data).toContainEqual(expect.objectContaining({ id: first, status: 'approved' }));

    await switchJamie({ rewards_enabled: 1 });
    await aliDecides(second, 'deny');
    expect(sent.map((s) => s.message.url)).toEqual(['/rewards/history']);
  });
});
