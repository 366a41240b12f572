import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPaths, paths } from '../../src/contract/paths';
import type { Client } from './support/client';
import { startTestServer, type TestServer } from './support/server';

/**
 * Issue 13, server throughput: every list endpoint in checkpoint mode (the replica's pull: rows after
 * (updated_at, id) in that order, tombstones included) finds its rows through an index, in index order.
 * Each list is requested as the replica asks for it; the statements it ran that walk a checkpoint are
 * explained with sequential scans and sorts priced out (enable_seqscan, enable_sort off), so the
 * planner uses an index wherever one serves, and a Seq Scan or Sort left in the plan names a table no
 * index serves. On tiny demo tables the planner would choose a sequential scan anyway; priced out, the
 * plan shows what it would do once the table is large.
 */
const CHECKPOINT = {
  'sort[0][0]': 'updated_at',
  'sort[0][1]': 'asc',
  'sort[1][0]': 'id',
  'sort[1][1]': 'asc',
  with_trashed: '1',
  per_page: '100',
  'checkpoint[updated_at]': '1970-01-01T00:00:00.000000Z',
  'checkpoint[id]': '00000000-0000-0000-0000-000000000000',
};
/** Where a statement walks a checkpoint: `(updated_at, id) > (cast($n as timestamptz), cast($m as uuid))`. */
const WALKS_CHECKPOINT = /\) > \(cast\(\$\d+ as timestamptz\), cast\(\$\d+ as uuid\)\)/;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Sort Key'?: string[];
  Plans?: PlanNode[];
}

/** Seq Scans and Sorts anywhere in a plan (subplans included). */
function offenders(node: PlanNode, found: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan') found.push(`Seq Scan on ${node['Relation Name']}`);
  if (node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort') found.push(`${node['Node Type']} by ${node['Sort Key']?.join(', ')}`);
  for (const child of node.Plans ?? []) offenders(child, found);
  return found;
}

let server: TestServer;
let recording: CompiledQuery[] | null = null;
let jamie: Client;
let ali: Client;
let priya: Client;
let residentId: string;
let homeId: string;
let entryWithComments: string;
let formDocument: string;

beforeAll(async () => {
  server = await startTestServer({ onQuery: (query) => recording?.push(query) });
  jamie = server.client();
  ali = server.client();
  priya = server.client();
  await jamie.login('jamie', 'hearth-demo-1');
  await ali.login('carer.ali', 'hearth-demo-1');
  await priya.login('manager.priya', 'hearth-demo-1');
  const account = (await jamie.get<{ user: { resident: { id: string; home_id: string } } }>(`/api${paths.account.build()}`)).body;
  residentId = account.user.resident.id;
  homeId = account.user.resident.home_id;
  const comment = await server.db.selectFrom('entry_comments').select('entry_id').where('entry_type', '=', 'journal').where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  entryWithComments = comment.entry_id;
  const form = await server.db.selectFrom('documents').select('id').where('kind', '=', 'form').where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  formDocument = form.id;
});
afterAll(async () => server?.close());

/** The statements of one request that walk a checkpoint, each with what its plan would scan and sort. */
async function checkpointPlans(client: Client, path: string, query: Record<string, string> = {}) {
  recording = [];
  const res = await client.get(`/api${path}?${new URLSearchParams({ ...CHECKPOINT, ...query })}`);
  const ran = recording;
  recording = null;
  expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200);
  const walking = ran.filter((q) => WALKS_CHECKPOINT.test(q.sql));
  expect(walking.length, `${path} ran no checkpoint statement`).toBeGreaterThan(0);
  const plans: { sql: string; offenders: string[] }[] = [];
  for (const statement of walking) {
    const plan = await server.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_sort = off`.execute(trx);
      const result = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]));
      const cell = result.rows[0]!['QUERY PLAN'];
      return (typeof cell === 'string' ? (JSON.parse(cell) as [{ Plan: PlanNode }]) : cell)[0].Plan;
    });
    plans.push({ sql: statement.sql.slice(0, 120), offenders: offenders(plan) });
  }
  return plans;
}

const today = new Date().toISOString().slice(0, 10);

/**
 * Lists whose `updated_at` is worked out from several tables (the newest of a person and their home
 * membership; a document's access-aware time; when a form was given to a young person; a home's
 * rewards and roster seen through the homes a young person lived in, migration 0013): no index
 * holds that order, so the reader's own rows are sorted, a top-N sort bounded by per_page. They
 * still may not scan a table. A reader has few of those rows; the calendar, where a young person
 * can have thousands, keeps its derived time on the instance (migration 0012) and must come from
 * its index like any other list.
 */
const DERIVED_SYNC_TIME = /^(Incremental )?Sort by \((GREATEST|CASE)\b/;
const DERIVED_TIME_SORTED = new Set(['associated users', 'documents', 'forms', 'rewards', 'staff roster']);

const LISTS: [who: 'jamie' | 'ali' | 'priya', name: string, path: () => string, query?: () => Record<string, string>][] = [
  ['jamie', 'journal entries', () => entryPaths.journal.entries.build()],
  ['jamie', 'voice entries', () => entryPaths.voice.entries.build()],
  ['jamie', 'journal entry comments', () => entryPaths.journal.entryComments.build(entryWithComments)],
  ['jamie', 'voice categories', () => paths.voiceCategories.build()],
  ['jamie', 'emojis', () => paths.emojis.build()],
  ['jamie', 'calendar instances', () => paths.calendarInstances.build(residentId)],
  ['jamie', 'event types', () => paths.eventTypes.build()],
  ['jamie', 'staff roster', () => paths.staffRoster.build(), () => ({ date: today, 'parent_project_ids[]': homeId })],
  ['jamie', 'associated users', () => paths.associatedUsers.build(residentId)],
  ['jamie', 'feedback', () => paths.feedback.build()],
  ['jamie', 'completed tasks', () => paths.tasksComplete.build(residentId)],
  ['jamie', 'current tasks', () => paths.tasksIncomplete.build(residentId)],
  ['jamie', 'points', () => paths.residentPoints.build(residentId)],
  ['jamie', 'forms', () => paths.forms.build()],
  ['jamie', 'rewards', () => paths.rewards.build(), () => ({ resident_id: residentId })],
  ['jamie', 'reward history', () => paths.rewardsHistory.build(residentId)],
  ['jamie', 'documents', () => paths.documents.build()],
  ['ali', 'journal entries shared with staff', () => entryPaths.journal.entries.build()],
  ['ali', 'a home’s rewards', () => paths.homeRewards.build(homeId)],
  ['ali', 'a home’s reward exchanges', () => paths.homeRewardExchanges.build(homeId)],
  ['ali', 'a form’s submissions', () => paths.documentSubmissions.build(formDocument)],
  ['ali', 'every form of the site', () => paths.forms.build()],
  ['priya', 'staff access log', () => paths.staffAccessLog.build()],
];

describe('list endpoints in checkpoint mode use an index, in order', () => {
  it.each(LISTS)('%s: %s', async (who, name, path, query) => {
    const client = { jamie, ali, priya }[who];
    const plans = await checkpointPlans(client, path(), query?.());
    const allowed = (offender: string) => DERIVED_TIME_SORTED.has(name) && DERIVED_SYNC_TIME.test(offender);
    const unserved = plans.map((p) => ({ ...p, offenders: p.offenders.filter((o) => !allowed(o)) }));
    expect(unserved.filter((p) => p.offenders.length > 0)).toEqual([]);
  });
});
