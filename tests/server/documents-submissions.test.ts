import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentMessages, documentPageSchema, documentSubmissionPageSchema, documentSubmissionResponseSchema, type Document, type DocumentSubmission,
} from '../../src/contract/documents';
import { formMessages } from '../../src/contract/forms';
import { chosenMessages as chosen } from '../../src/contract/messages';
import type { Client } from './support/client';
import { browserHeaders, demoIds, openStream, signedIn, signedInRiley } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, PDF, pngImage, postForm, type FormValue } from './support/uploads';

/**
 * Form documents (issue 11): the young person fills in "My views for my review meeting" (every
 * field kind) and sends it once; staff of their home read it; the answers are checked with the
 * contract's answersSchemaFor; replays answer the same submission.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let riley: Client;
let ali: Client;
let chris: Client;
const classifier = new FakeClassifier();

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  [jamie, ali, chris] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali'), signedIn(server, 'carer.chris')]);
  riley = await signedInRiley(server);
});
afterAll(async () => {
  await server?.close();
});

const PNG = pngImage(10, 10, [250, 200, 0]);
const SIGNATURE = pngImage(30, 10, [0, 0, 0]);

async function rows(client: Client) {
  return documentPageSchema.parse((await client.get('/api/v1/documents')).body).data;
}
const reviewForm = async (client: Client) => (await rows(client)).find((d) => d.title === 'My views for my review meeting')!;

async function submit(client: Client, docId: string, fields: [string, FormValue][], headers: Record<string, string> = {}) {
  return postForm<{ data: DocumentSubmission; errors?: Record<string, string[]>; message?: string }>(server.base, client, `/api/v1/documents/${docId}/submissions`, fields, headers);
}

const fullAnswers = (relatedId: string) => ({
  going_well: 'Football and my history project.',
  worries: 'Moving school next year',
  happy_here: 'yes',
  happiness: 8,
  mood_colour: '#3aa655',
  week: [{ day: 'Monday', best: 'Football', hardest: 'Maths' }],
  talk_about: ['school', 'future'],
  objectives: [relatedId],
  attend: true,
});

describe('filling in a form document', () => {
  it('Jamie sends every kind of answer with files; reads it back in his row; staff read it; it happens once', async () => {
    const doc = await reviewForm(jamie);
    const related = (doc.form!.fields as { id: string; related_form_ids?: string[] }[]).find((f) => f.id === 'objectives')!.related_form_ids![0]!;
    const id = randomUUID();
    const stream = await openStream(server, ali);
    const fields: [string, FormValue][] = [
      ['id', id],
      ['answers', JSON.stringify({ ...fullAnswers(related), signature: { file_id: randomUUID() } })],
      ['files[photo]', { name: 'proud.png', data: PNG }],
      ['files[signature]', { name: 'signature.png', data: SIGNATURE }],
      ['files[extra_files][]', { name: 'certificate.pdf', data: PDF }],
      ['files[extra_files][]', { name: 'medal.png', data: PNG }],
    ];
    const key = randomUUID();
    const sent = await submit(jamie, doc.id, fields, { 'Idempotency-Key': key });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await stream.waitFor(/"documents"/);
    stream.close();
    const submission = documentSubmissionResponseSchema.parse(sent.body).data;
    expect(submission).toMatchObject({ id, document_id: doc.id, resident_id: ids.resident['demo/jamie'], form_version_id: doc.form!.form_version_id, answers: fullAnswers(related) });
    expect(submission.files.map((f) => f.name).sort()).toEqual(['certificate.pdf', 'medal.png', 'proud.png', 'signature.png']);
    const byName = new Map(submission.files.map((f) => [f.name, f]));
    expect(submission.answers.photo).toEqual({ file_id: byName.get('proud.png')!.id });
    expect(submission.answers.signature).toEqual({ file_id: byName.get('signature.png')!.id });
    expect(submission.answers.extra_files).toEqual([{ file_id: byName.get('certificate.pdf')!.id }, { file_id: byName.get('medal.png')!.id }]);
    expect(classifier.seen).toEqual(expect.arrayContaining(['image/png']));

    // The replays: the same key answers the stored copy; the same client id answers the submission.
    const replay = await submit(jamie, doc.id, fields, { 'Idempotency-Key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await submit(jamie, doc.id, fields);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(id);
    const second = await submit(jamie, doc.id, [['answers', JSON.stringify(fullAnswers(related))], ['files[signature]', { name: 's.png', data: SIGNATURE }]]);
    expect(second.status).toBe(422);
    expect(second.body.errors).toEqual({ answers: [documentMessages.alreadySubmitted] });

    const mine = await reviewForm(jamie);
    expect(mine.submission).toEqual(submission);
    expect(mine.updated_at > doc.updated_at).toBe(true);
    const file = await fetch(`${server.base}/api${byName.get('proud.png')!.blob}`, { headers: { cookie: browserHeaders(jamie).cookie! } });
    expect(file.status).toBe(200);

    const staff = await ali.get(`/api/v1/documents/${doc.id}/submissions`);
    expect(staff.status, JSON.stringify(staff.body)).toBe(200);
    const page = documentSubmissionPageSchema.parse(staff.body);
    expect(page.data.map((s) => s.id)).toEqual([id]);
    expect(page.data[0]!.form_version.fields.length).toBeGreaterThan(0);
    expect(page.data[0]!.answers).toEqual(submission.answers);
    expect((await fetch(`${server.base}/api${byName.get('proud.png')!.blob}`, { headers: { cookie: browserHeaders(ali).cookie! } })).status).toBe(200);
    // Staff see no submission in their own rows, and a young person cannot list them.
    expect((await reviewForm(ali)).submission).toBeNull();
    expect((await jamie.get(`/api/v1/documents/${doc.id}/submissions`)).status).toBe(403);
    for (const outsider of [riley, chris]) {
      expect((await outsider.get(`/api/v1/documents/${doc.id}/submissions`)).status).toBe(404);
      expect((await fetch(`${server.base}/api${byName.get('proud.png')!.blob}`, { headers: { cookie: browserHeaders(outsider).cookie! } })).status).toBe(404);
    }
    // Withdrawn: gone for Jamie; staff still read what he said.
    expect((await ali.request('DELETE', `/api/v1/documents/${doc.id}`)).status).toBe(200);
    expect((await fetch(`${server.base}/api${byName.get('proud.png')!.blob}`, { headers: { cookie: browserHeaders(jamie).cookie! } })).status).toBe(404);
    expect(documentSubmissionPageSchema.parse((await ali.get(`/api/v1/documents/${doc.id}/submissions`)).body).data).toHaveLength(1);
    expect((await fetch(`${server.base}/api${byName.get('proud.png')!.blob}`, { headers: { cookie: browserHeaders(ali).cookie! } })).status).toBe(200);
    expect((await submit(jamie, doc.id, fields.slice(1))).status).toBe(404);
  });
});

describe('a home-wide form', () => {
  let doc: Document;
  beforeAll(async () => {
    const forms = (await ali.get('/api/v1/forms')).body as { data: { id: string; name: string }[] };
    const made = await ali.post('/api/v1/documents', { kind: 'form', title: 'House meeting ideas', home_id: ids.home['Willow House'], form_id: forms.data.find((f) => f.name === 'Independence skills')!.id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    doc = (made.body as { data: Document }).data;
  });

  it('each young person sends their own; nobody else reads theirs', async () => {
    const answers = JSON.stringify({ what_did_you_do: 'A film night', confidence: 6 });
    const jamies = await submit(jamie, doc.id, [['answers', answers], ['files[photo]', { name: 'film.png', data: PNG }]]);
    expect(jamies.status, JSON.stringify(jamies.body)).toBe(201);
    const rileys = await submit(riley, doc.id, [['answers', JSON.stringify({ what_did_you_do: 'Pizza', confidence: 9 })]]);
    expect(rileys.status, JSON.stringify(rileys.body)).toBe(201);
    const rileyRow = (await rows(riley)).find((d) => d.id === doc.id)!;
    expect(rileyRow.submission!.id).toBe(rileys.body.data.id);
    const photo = jamies.body.data.files[0]!;
    expect((await fetch(`${server.base}/api${photo.blob}`, { headers: { cookie: browserHeaders(riley).cookie! } })).status).toBe(404);
    const staff = documentSubmissionPageSchema.parse((await ali.get(`/api/v1/documents/${doc.id}/submissions`)).body);
    expect(staff.data.map((s) => s.id).sort()).toEqual([jamies.body.data.id, rileys.body.data.id].sort());
    // Staff read the form but do not fill it in.
    const byStaff = await submit(ali, doc.id, [['answers', answers]]);
    expect(byStaff.status).toBe(403);
  });

  it('answers that do not fit are 422 field errors under answers.<field>, never 500', async () => {
    const fresh = await ali.post('/api/v1/documents', { kind: 'form', title: 'Checks', resident_id: ids.resident['demo/jamie'], form_id: doc.form!.form_id });
    const target = (fresh.body as { data: Document }).data;
    const cases: [unknown, string][] = [
      [{}, 'answers.what_did_you_do'],
      [{ what_did_you_do: 'x', confidence: 11 }, 'answers.confidence'],
      [{ what_did_you_do: 'x', confidence: 2.5 }, 'answers.confidence'],
      [{ what_did_you_do: 'x', confidence: 'high' }, 'answers.confidence'],
      [{ what_did_you_do: 42, confidence: 5 }, 'answers.what_did_you_do'],
      [{ what_did_you_do: 'x', confidence: 5, skills: ['flying'] }, 'answers.skills.0'],
      [{ what_did_you_do: 'x', confidence: 5, nope: 1 }, 'answers'],
    ];
    for (const [answers, key] of cases) {
      const res = await submit(jamie, target.id, [['answers', JSON.stringify(answers)]]);
      expect(res.status, JSON.stringify(answers)).toBe(422);
      expect(Object.keys(res.body.errors!), `${JSON.stringify(answers)} ${JSON.stringify(res.body)}`).toContain(key);
    }
    const required = await submit(jamie, target.id, [['answers', JSON.stringify({ confidence: 5 })]]);
    expect(required.body.errors).toEqual({ 'answers.what_did_you_do': [formMessages.required] });
    const notJson = await submit(jamie, target.id, [['answers', '{oops']]);
    expect(notJson.status).toBe(422);
    expect(notJson.body.errors).toEqual({ answers: [documentMessages.notJson] });
    const asJson = await jamie.post(`/api/v1/documents/${target.id}/submissions`, { answers: [1, 2] });
    expect(asJson.status).toBe(422);
    const wrongFile = await submit(jamie, target.id, [['answers', JSON.stringify({ what_did_you_do: 'x', confidence: 5 })], ['files[photo]', { name: 'a.pdf', data: PDF }]]);
    expect(wrongFile.body.errors).toEqual({ 'answers.photo': [formMessages.notAnImage] });
    const twoPhotos = await submit(jamie, target.id, [['answers', JSON.stringify({ what_did_you_do: 'x', confidence: 5 })], ['files[photo]', { name: 'a.png', data: PNG }], ['files[photo]', { name: 'b.png', data: PNG }]]);
    expect(twoPhotos.body.errors).toHaveProperty('answers.photo');
    const notAFileField = await submit(jamie, target.id, [['answers', JSON.stringify({ what_did_you_do: 'x', confidence: 5 })], ['files[confidence]', { name: 'a.png', data: PNG }], ['stray', { name: 'b.png', data: PNG }]]);
    expect(notAFileField.body.errors).toMatchObject({ 'answers.confidence': [formMessages.unknownField], stray: [documentMessages.unexpectedFile] });
    const flagged = pngImage(11, 11, [255, 0, 0]);
    classifier.flag(flagged);
    const inappropriate = await submit(jamie, target.id, [['answers', JSON.stringify({ what_did_you_do: 'x', confidence: 5 })], ['files[photo]', { name: 'x.png', data: flagged }]]);
    expect(inappropriate.body.errors).toEqual({ 'answers.photo': ['Image added is inappropriate'] });
    expect((await submit(jamie, target.id, [['answers', JSON.stringify({ what_did_you_do: 'a\u0000b', confidence: 5 })]])).status).toBe(422);
    expect((await jamie.post(`/api/v1/documents/${target.id}/submissions`, { answers: { what_did_you_do: 'a\u0000b', confidence: 5 } })).status).toBe(422);
    expect((await submit(jamie, target.id, [['id', 'nope'], ['answers', '{}']])).body.errors).toHaveProperty('id');
    expect((await submit(jamie, 'nope', [['answers', '{}']])).status).toBe(422);
    expect((await submit(jamie, randomUUID(), [['answers', '{}']])).status).toBe(404);
    // A document that is not a form is not filled in.
    const book = (await rows(jamie)).find((d) => d.kind === 'book')!;
    expect((await submit(jamie, book.id, [['answers', '{}']])).body.errors).toEqual({ answers: [documentMessages.notAForm] });
    // After all that, a good one goes through.
    expect((await submit(jamie, target.id, [['answers', JSON.stringify({ what_did_you_do: 'x', confidence: 5 })]])).status).toBe(201);
  });

  it('a "__proto__" key in the answers is refused (422, as JSON text or in a JSON body) and nothing is sent', async () => {
    const fresh = await ali.post('/api/v1/documents', { kind: 'form', title: 'Proto check', resident_id: ids.resident['demo/jamie'], form_id: doc.form!.form_id });
    const target = (fresh.body as { data: Document }).data;
    for (const text of [
      '{"__proto__": {"what_did_you_do": "x", "confidence": 5}}',
      '{"what_did_you_do": "x", "confidence": 5, "__proto__": {"skills": ["flying"]}}',
      '{"what_did_you_do": "x", "confidence": 5, "week": [{"__proto__": {"day": "Mon"}}]}',
    ]) {
      const res = await submit(jamie, target.id, [['answers', text]]);
      expect(res.status, `${text}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.errors).toEqual({ answers: [chosen.reservedJsonKey] });
    }
    const asJson = await fetch(`${server.base}/api/v1/documents/${target.id}/submissions`, {
      method: 'POST',
      headers: { ...browserHeaders(jamie), 'content-type': 'application/json', accept: 'application/json' },
      body: '{"answers": {"__proto__": {"what_did_you_do": "x", "confidence": 5}}}',
    });
    // In a JSON body the body parser refuses it (as any body that is not JSON).
    expect(asJson.status, await asJson.clone().text()).toBe(422);
    expect((await rows(jamie)).find((d) => d.id === target.id)!.submission).toBeNull();
    const sent = await submit(jamie, target.id, [['answers', JSON.stringify({ what_did_you_do: 'x', confidence: 5 })]]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.data.answers).toEqual({ what_did_you_do: 'x', confidence: 5 });
  });
});
