/**
 * The feedback counts a young person's badge shows leave out a journal or voice that staff switched
 * off (the app blocks those screens), and come back when it is switched on. Through the API: carer.ali
 * switches Jamie's features with the staff endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedbackCountsResponseSchema } from '../../src/contract/feedback';
import type { FeatureFlag } from '../../src/contract/residents';
import { paths } from '../../src/contract/paths';
import type { Client } from './support/client';
import { demoIds, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';

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

const counts = async () => feedbackCountsResponseSchema.parse((await jamie.get(`/api${paths.feedbackCounts.build()}`)).body).data;

async function switchJamie(flags: Partial<Record<FeatureFlag, 0 | 1>>) {
  const res = await ali.put(`/api${paths.residentFeatures.build(ids.resident['demo/jamie']!)}`, flags);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('feedback counts and switched-off features', () => {
  it('a switched-off journal or voice counts 0 for the young person, and counts again once switched on', async () => {
    const before = await counts();
    // The demo data has replies waiting for Jamie in both (the dashboard's badges).
    expect(before.journal).toBeGreaterThan(0);
    expect(before.voice).toBeGreaterThan(0);
    await switchJamie({ voice_enabled: 0 });
    expect(await counts()).toEqual({ journal: before.journal, voice: 0 });
    await switchJamie({ journal_enabled: 0, voice_enabled: 1 });
    expect(await counts()).toEqual({ journal: 0, voice: before.voice });
    await switchJamie({ journal_enabled: 1 });
    expect(await counts()).toEqual(before);
  });
});
