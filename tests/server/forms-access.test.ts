import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaEnableResponseSchema } from '../../src/contract/auth';
import { formSchema, type Form } from '../../src/contract/forms';
import { pageSchema } from '../../src/contract/sync';
import type { Client } from './support/client';
import { DEMO_PASSWORD, demoIds, signInDemoClients } from './support/session';
import { awayFromStepBoundary, startTestServer, totpCode, type TestServer } from './support/server';

/**
 * GET /v1/forms (security review, finding 3): staff read every form of their site; a young person
 * only the forms they are given (their objectives', the form documents they may read, and the
 * forms those name in a related-forms question), and a checkpoint pull brings a form the moment it
 * is given, however old the form is.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let riley: Client;
let sam: Client;
let alex: Client;
let ali: Client;
let chris: Client;

/** Alex's site requires two-factor: he sets up an authenticator, through the API. */
async function signedInAlex(): Promise<Client> {
  const client = server.client();
  expect((await client.login('alex', DEMO_PASSWORD, 'northfield')).status).toBe(200);
  const start = mfaEnableResponseSchema.parse((await client.post('/api/auth/mfa/enable', { method: 'authenticator' })).body).data;
  await awayFromStepBoundary();
  expect((await client.post('/api/auth/mfa/enable', { method: 'authenticator', code: totpCode(start.secret!) })).status).toBe(200);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  ({ jamie, sam, riley, ali, chris } = await signInDemoClients(server));
  // Not through signInDemoClients' extra: that relaxes Northfield's two-factor policy, which Alex meets here.
  alex = await signedInAlex();
});
afterAll(async () => {
  await server?.close();
});

const FIRST_PULL = 'with_trashed=1&per_page=500&sort[0][0]=updated_at&sort[0][1]=asc&checkpoint[updated_at]=1970-01-01T00:00:00.000000Z&checkpoint[id]=00000000-0000-0000-0000-000000000000';

async function forms(client: Client, query = 'per_page=500'): Promise<{ data: Form[]; meta: { checkpoint: { updated_at: string; id: string } | null } }> {
  const res = await client.get(`/api/v1/forms?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return pageSchema(formSchema).parse(res.body);
}
const names = async (client: Client, query?: string) => (await forms(client, query)).data.map((f) => f.name).sort();
const after = (checkpoint: { updated_at: string; id: string }) =>
  `with_trashed=1&per_page=500&checkpoint[updated_at]=${encodeURIComponent(checkpoint.updated_at)}&checkpoint[id]=${checkpoint.id}`;

let demoForms: Form[];
const formNamed = (name: string) => demoForms.find((f) => f.name === name)!.id;

describe('who reads which forms', () => {
  it('staff read every form of their site; Jamie those of his objectives and documents; nobody else of his', async () => {
    demoForms = (await forms(ali)).data;
    expect(demoForms.map((f) => f.name).sort()).toEqual(['Education', 'Health and wellbeing', 'Independence skills', 'My views for my review meeting']);
    expect(await names(chris)).toEqual(demoForms.map((f) => f.name).sort());
    expect(await names(jamie)).toEqual(demoForms.map((f) => f.name).sort());
    // Riley lives with Jamie, Sam in another home, Alex on another site: none has an objective or a form of theirs yet.
    expect(await names(riley)).toEqual([]);
    expect(await names(sam)).toEqual([]);
    expect(await names(riley, `filters[0][0]=name&filters[0][1]==&filters[0][2]=Education&${FIRST_PULL}`)).toEqual([]);
    const alexSees = (await forms(alex)).data;
    expect(alexSees.map((f) => f.name)).toEqual(['Health and wellbeing']);
    expect(alexSees.some((f) => demoForms.some((d) => d.id === f.id))).toBe(false);
  });

  it('a form shared with a home is given to its young people (with the forms it names), not to another home or site', async () => {
    const shared = await ali.post('/api/v1/documents', { kind: 'form', title: 'House check-in', home_id: ids.home['Willow House'], form_id: formNamed('Education') });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    // Education's related-forms question names Independence skills: its name is part of what was given.
    expect(await names(riley, FIRST_PULL)).toEqual(['Education', 'Independence skills']);
    expect(await names(sam, FIRST_PULL)).toEqual([]);
    expect((await forms(alex, FIRST_PULL)).data.some((f) => demoForms.some((d) => d.id === f.id))).toBe(false);
  });

  it("a checkpoint pull brings a form once it is given (an objective, a form document), however old the form", async () => {
    const shared = await chris.post('/api/v1/documents', { kind: 'form', title: 'Wellbeing check', home_id: ids.home['Cedar Lodge'], form_id: formNamed('Health and wellbeing') });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const first = await forms(sam, FIRST_PULL);
    expect(first.data.map((f) => f.name)).toEqual(['Health and wellbeing']);

    const task = await chris.post(`/api/v1/projects/residents/${ids.resident['demo/sam']}/tasks`, { form_id: formNamed('Education'), title: 'Homework', task_date: '2026-11-20' });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    const next = await forms(sam, after(first.meta.checkpoint!));
    expect(next.data.map((f) => f.name).sort()).toEqual(['Education', 'Independence skills']);
    expect(next.data.every((f) => f.deleted_at === null)).toBe(true);
    // Nothing of Sam's reached Riley or Jamie's other forms.
    expect(await names(riley)).toEqual(['Education', 'Independence skills']);
  });
});
