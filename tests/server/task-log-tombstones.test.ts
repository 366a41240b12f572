/**
 * A deleted objective's log is sent to replicas only as a tombstone: which log went and when, nothing
 * written in it (title, description, answers). No endpoint deletes a task or a log today, so this is
 * checked on the presenter every list and pull of logs goes through (presentTaskLogs).
 */
import { describe, expect, it } from 'vitest';
import { taskLogSchema } from '../../src/contract/tasks';
import type { FastifyInstance } from 'fastify';
import { presentTaskLogs, type TaskLogRow } from '../../server/domain/tasks/queries';
import type { SignedIn } from '../../server/plugins/session';

const row = {
  id: '11111111-1111-4111-8111-111111111111',
  updated_at: '2026-03-10T10:00:00.000000Z',
  deleted_at: '2026-03-11T08:00:00.000000Z',
  task_id: '22222222-2222-4222-8222-222222222222',
  resident_id: '33333333-3333-4333-8333-333333333333',
  status: 'completed',
  answers: { how: 'I felt proud of myself' },
  completed_at: '2026-03-10T09:30:00.000000Z',
  reviewed: true,
  title: 'Talk to my social worker about home',
  description: 'What staff wrote about it',
  task_date: '2026-03-10',
  form_id: '44444444-4444-4444-8444-444444444444',
  form_name: 'Education',
  form_description: 'School and learning',
  form_version_id: '55555555-5555-4555-8555-555555555555',
  form_version: 3,
  form_fields: [{ name: 'how', type: 'text' }],
  created_at: '2026-03-10T09:00:00.000000Z',
} as unknown as TaskLogRow;

describe('task logs as the replicas receive them', () => {
  it('a deleted log carries its ids and deletion, and nothing written in it', async () => {
    // Only deleted rows: nothing is read from the database (a deleted log's comments are not looked up).
    const [shown] = await presentTaskLogs({} as FastifyInstance, {} as SignedIn, [row]);
    expect(taskLogSchema.parse(shown)).toEqual(shown);
    expect(shown).toMatchObject({ id: row.id, task_id: row.task_id, resident_id: row.resident_id, deleted_at: row.deleted_at, answers: {}, comments: [] });
    const text = JSON.stringify(shown);
    for (const written of ['I felt proud', 'social worker', 'What staff wrote', 'Education', 'School and learning']) expect(text).not.toContain(written);
  });
});
