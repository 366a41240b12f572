import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceCategoriesPageSchema, voiceEntryResponseSchema } from '../../src/contract/entries';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { entryPaths, paths } from '../../src/contract/paths';
import { rewardExchangePageSchema, rewardMessages, rewardPageSchema } from '../../src/contract/rewards';
import { pointsPageSchema } from '../../src/contract/tasks';
import type { Client } from './support/client';
import { demoIds, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { PDF, postForm } from './support/uploads';

/**
 * A feature staff switched off, reached by its API anyway: the writes feature-flags.test.ts does not
 * send. Voice off: an update of an existing voice entry (its words, its sharing, a new file) and a
 * reply carrying a file. Rewards off: exchanges under new client ids and Idempotency-Keys, one after
 * the other and at once. Each is refused and nothing is kept; reads stay.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  ({ jamie, ali } = await signInDemoClients(server));
});
afterAll(async () => {
  await server?.close();
});

const jamieId = () => ids.resident['demo/jamie']!;
const switchTo = async (flags: Record<string, 0 | 1>) => expect((await ali.put(`/api${paths.residentFeatures.build(jamieId())}`, flags)).status).toBe(200);

describe('voice switched off', () => {
  it('an existing voice entry cannot be changed, nor replied to with a file; it still reads', async () => {
    const categories = voiceCategoriesPageSchema.parse((await jamie.get(`/api${paths.voiceCategories.build()}`)).body).data;
    const made = await jamie.post(`/api${entryPaths.voice.entries.build()}`, { description: 'Before it went off', category_id: categories[0]!.id });
    expect(made.status).toBe(201);
    const entry = voiceEntryResponseSchema.parse(made.body).data;
    await switchTo({ voice_enabled: 0 });
    try {
      const attempts = [
        jamie.post(`/api${entryPaths.voice.entry.build(entry.id)}?_method=PUT`, { description: 'Changed while off' }),
        jamie.post(`/api${entryPaths.voice.entry.build(entry.id)}?_method=PUT`, { shared_with: [ids.user['demo/carer.ali']] }),
        jamie.post(`/api${entryPaths.voice.entry.build(entry.id)}?_method=PUT`, { category_id: categories[1]!.id }),
        postForm(server.base, jamie, `/api${entryPaths.voice.entry.build(entry.id)}?_method=PUT`, [['files[0]', { name: 'more.pdf', data: PDF, type: 'application/pdf' }]]),
        postForm(server.base, jamie, `/api${entryPaths.voice.comments.build()}`, [['entry_id', entry.id], ['comment', 'With a file'], ['files[0]', { name: 'a.pdf', data: PDF, type: 'application/pdf' }]]),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status, JSON.stringify(res.body)).toBe(403);
        expect(res.body).toEqual({ success: false, message: chosen.forbidden });
      }
      const now = await jamie.get(`/api${entryPaths.voice.entry.build(entry.id)}`);
      expect(now.status).toBe(200);
      expect((now.body as { data: unknown }).data).toMatchObject({ ...entry, comments: [] });
    } finally {
      await switchTo({ voice_enabled: 1 });
    }
  });
});

describe('rewards switched off', () => {
  it('no exchange under any new client id or key, one by one or at once: nothing is taken', async () => {
    const reward = rewardPageSchema.parse((await jamie.get(`/api${paths.rewards.build()}`)).body).data.filter((r) => r.active).sort((a, b) => a.points - b.points)[0]!;
    const balance = async () => pointsPageSchema.parse((await jamie.get(`/api${paths.residentPoints.build(jamieId())}`)).body).balance;
    const history = async () => rewardExchangePageSchema.parse((await jamie.get(`/api${paths.rewardsHistory.build(jamieId())}?per_page=500`)).body).data.map((x) => x.id);
    const before = { balance: await balance(), history: await history() };
    await switchTo({ rewards_enabled: 0 });
    try {
      const exchange = () => {
        const id = randomUUID();
        return jamie.request('POST', `/api${paths.rewardExchange.build(jamieId(), reward.id)}`, { json: { id }, headers: { 'idempotency-key': id } });
      };
      const answers = [await exchange(), await exchange(), ...(await Promise.all(Array.from({ length: 5 }, exchange)))];
      for (const res of answers) {
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body).toMatchObject({ message: rewardMessages.redeemFailed, errors: { rewards_enabled: [rewardMessages.rewardsOff] } });
      }
      expect(await balance()).toBe(before.balance);
      expect(await history()).toEqual(before.history);
      // Reads stay: the catalogue and the history answer as before.
      expect((await jamie.get(`/api${paths.rewards.build()}`)).status).toBe(200);
    } finally {
      await switchTo({ rewards_enabled: 1 });
    }
  });
});
