import { describe, expect, it } from 'vitest';
import { replayOutbox } from '@/data/outbox/replay';
import { enqueue, entryWrite, fakeTransport, freshStore, ok, replayOptions, testKey } from './outbox-support';

describe('outbox request shapes (SPEC §5, §7)', () => {
  it('creates an entry as multipart: nulls skipped, shared_with repeated, files indexed', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(ok);
    const input = entryWrite({
      fields: {
        description: 'A good day',
        canvas: null,
        reaction: undefined,
        date: '2026-11-20',
        shared_with: ['staff-1', 'staff-2'],
        submitted: true,
      },
      files: [new File(['first'], 'one.png', { type: 'image/png' }), new File(['second'], 'two.jpg', { type: 'image/jpeg' })],
    });
    await enqueue(store, key, input);
    await replayOutbox(replayOptions(store, key, server.transport));

    expect(server.sent).toHaveLength(1);
    const [sent] = server.sent;
    expect(sent!.request.method).toBe('POST');
    expect(sent!.request.url).toBe('/api/v1/projects/residents/journal/entries');
    expect(sent!.request.headers['Content-Type']).toBeUndefined(); // fetch adds the boundary
    expect(sent!.entries).toEqual([
      ['description', 'A good day'],
      ['date', '2026-11-20'],
      ['shared_with[]', 'staff-1'],
      ['shared_with[]', 'staff-2'],
      ['submitted', '1'],
      ['files[0]', { name: 'one.png', type: 'image/png', text: 'first' }],
      ['files[1]', { name: 'two.jpg', type: 'image/jpeg', text: 'second' }],
    ]);
  });

  it('updates with POST and _method=PUT (query and field)', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(ok);
    const id = crypto.randomUUID();
    await enqueue(store, key, entryWrite({ method: 'PUT', methodOverride: 'PUT', path: `/v1/projects/residents/journal/entries/${id}` }));
    await replayOutbox(replayOptions(store, key, server.transport));
    const [sent] = server.sent;
    expect(sent!.request.method).toBe('POST');
    expect(sent!.request.url).toBe(`/api/v1/projects/residents/journal/entries/${id}?_method=PUT`);
    expect(sent!.entries).toContainEqual(['_method', 'PUT']);
  });

  it('sends app settings as JSON with PUT, the token and the Idempotency-Key', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(ok);
    const input = entryWrite({
      method: 'PUT',
      path: '/v1/projects/residents/r-1/app-settings',
      fields: undefined,
      json: { journal_colour: 'mint' },
      local: { collection: 'resident', id: 'r-1' },
    });
    await enqueue(store, key, input);
    await replayOutbox(replayOptions(store, key, server.transport));
    const [sent] = server.sent;
    expect(sent!.request.method).toBe('PUT');
    expect(sent!.json).toBe('{"journal_colour":"mint"}');
    expect(sent!.request.headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-XSRF-TOKEN': 'csrf-token',
      'Idempotency-Key': input.idempotencyKey,
    });
  });
});
