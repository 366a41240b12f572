import { sql, type Kysely } from 'kysely';
import type { FormFieldInput } from '../../src/contract/forms';
import { REVIEW_POINTS } from '../../src/contract/tasks';
import type { Database } from '../db/schema';
import { appendPoints } from '../domain/tasks/points';
import { saveForm } from '../domain/tasks/forms';
import type { BlobStore } from '../lib/blob-store';
import { uuidv7At } from '../lib/uuidv7';
import { demoDrawingPng } from './demo-entries';

/**
 * Demo objectives (issue 9): three forms (categories) that between them use every field kind,
 * opening balances in the points ledger, and, for Jamie, current and completed objectives in all
 * three categories with staff comments and a photo; one completed log is reviewed (+20 in the
 * ledger), one is completed and not yet reviewed. Alex (the other site) has one objective too.
 * Idempotent: forms are versioned only when their definition changes; a young person's objectives
 * are written only when they have none.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

const FORMS: { name: string; description: string; fields: (relatedIds: string[]) => FormFieldInput[] }[] = [
  {
    name: 'Independence skills',
    description: 'Everyday skills for living on your own one day.',
    fields: () => [
      { id: 'about', kind: 'heading', label: 'About the activity', level: 'section' },
      { id: 'what_did_you_do', kind: 'text', label: 'What did you do?', required: true },
      { id: 'how_it_went', kind: 'large_text', label: 'How did it go?', help_text: 'A few sentences is plenty.' },
      { id: 'needed_help', kind: 'boolean', label: 'Needed some help' },
      { id: 'skills', kind: 'multi_option', label: 'Skills used', options: [
        { value: 'planning', label: 'Planning' }, { value: 'shopping', label: 'Shopping' }, { value: 'cooking', label: 'Cooking' }, { value: 'cleaning', label: 'Cleaning up' },
      ] },
      { id: 'confidence', kind: 'slider', label: 'How confident do you feel?', help_text: '1 is not at all, 10 is very', min: 1, max: 10, step: 1, required: true },
      { id: 'photo', kind: 'image', label: 'A photo of it' },
      { id: 'staff_signature', kind: 'signature', label: 'Staff signature' },
    ],
  },
  {
    name: 'Education',
    description: 'School, college and learning.',
    fields: (relatedIds) => [
      { id: 'attendance', kind: 'heading', label: 'Attendance', level: 'group' },
      { id: 'on_time', kind: 'yes_no', label: 'On time every day?', required: true },
      { id: 'week', kind: 'table', label: 'The week', columns: [{ id: 'day', label: 'Day' }, { id: 'arrived', label: 'Arrived' }, { id: 'notes', label: 'Notes' }] },
      { id: 'mood_colour', kind: 'colour', label: 'Colour of the week', help_text: 'Pick a colour that sums up how the week felt.' },
      { id: 'work', kind: 'embedded_files', label: 'Work to be proud of' },
      { id: 'related', kind: 'related_forms', label: 'Related objectives', related_form_ids: relatedIds },
    ],
  },
  {
    name: 'Health and wellbeing',
    description: 'Looking after your body and your mind.',
    fields: () => [
      { id: 'activity', kind: 'text', label: 'Activity', required: true },
      { id: 'minutes', kind: 'slider', label: 'Minutes', min: 0, max: 120, step: 15 },
      { id: 'enjoyed', kind: 'yes_no', label: 'Did you enjoy it?' },
      { id: 'reflection', kind: 'large_text', label: 'How do you feel afterwards?' },
    ],
  },
];

interface DemoObjective {
  form: string;
  title: string;
  daysAgo: number;
  answers: Record<string, unknown>;
  completed?: boolean;
  /** Staff comments: [username, text, days after the task date, with a photo]. */
  comments: [string, string, number, boolean?][];
  review?: string;
}

const JAMIE: DemoObjective[] = [
  { form: 'Independence skills', title: 'Cook a meal with staff', daysAgo: 12, completed: true, review: 'I liked it. Next time I want to make lasagne.',
    answers: { what_did_you_do: 'Made spaghetti bolognese for everyone', how_it_went: 'Chopped the onions without crying. Everyone had seconds.', needed_help: true, skills: ['planning', 'cooking', 'cleaning'], confidence: 7 },
    comments: [['carer.ali', 'Great teamwork tonight Jamie, the sauce was spot on.', 0.2, true]] },
  { form: 'Education', title: 'Get to school on time all week', daysAgo: 6, completed: true,
    answers: { on_time: 'yes', week: [{ day: 'Monday', arrived: '08:40' }, { day: 'Tuesday', arrived: '08:35' }, { day: 'Wednesday', arrived: '08:45', notes: 'Bus was late' }], mood_colour: '#3aa655' },
    comments: [['carer.beth', 'Five days out of five. Really proud of you.', 0.5], ['manager.priya', 'Well done Jamie, keep it up!', 1]] },
  { form: 'Health and wellbeing', title: 'Try a new sport', daysAgo: 2,
    answers: { activity: 'Climbing wall' }, comments: [['carer.dan', 'Booked the climbing centre for Saturday at 10.', 0.1]] },
  { form: 'Independence skills', title: 'Do your own laundry', daysAgo: 0, answers: {}, comments: [] },
];

const ALEX: DemoObjective[] = [
  { form: 'Health and wellbeing', title: 'Walk to the park', daysAgo: 1, answers: {}, comments: [['carer.jo', 'Shall we go after tea?', 0]] },
];

export async function seedDemoObjectives(db: Kysely<Database>, tenantId: string, files?: BlobStore): Promise<void> {
  // Opening balances: the ledger's first entry is what a resident had before it existed.
  await sql`insert into points_ledger (tenant_id, resident_id, delta, reason, source_id)
    select tenant_id, id, reward_points, 'opening_balance', id from residents
    where tenant_id = ${tenantId} and reward_points > 0
    on conflict (reason, source_id) do nothing`.execute(db);

  const formIds = new Map<string, string>();
  for (const form of FORMS) {
    const related = form.name === 'Education' ? [...formIds.values()] : [];
    formIds.set(form.name, await saveForm(db, tenantId, form.name, form.description, form.fields(related)));
  }

  const users = new Map((await db.selectFrom('users').select(['id', 'username']).where('tenant_id', '=', tenantId).execute()).map((u) => [u.username, u.id]));
  for (const [username, objectives] of [['jamie', JAMIE], ['alex', ALEX]] as const) {
    const resident = await db
      .selectFrom('residents')
      .innerJoin('users', 'users.id', 'residents.user_id')
      .select(['residents.id', 'users.id as user_id'])
      .where('residents.tenant_id', '=', tenantId)
      .where('users.username', '=', username)
      .executeTakeFirst();
    if (!resident) continue;
    const has = await db.selectFrom('tasks').select('id').where('resident_id', '=', resident.id).executeTakeFirst();
    if (has) continue;
    for (const objective of objectives) await writeObjective(db, tenantId, resident, objective, formIds, users, files);
  }
}

async function writeObjective(
  db: Kysely<Database>,
  tenantId: string,
  resident: { id: string; user_id: string },
  objective: DemoObjective,
  formIds: Map<string, string>,
  users: Map<string, string>,
  files?: BlobStore,
) {
  const formId = formIds.get(objective.form)!;
  const staffId = users.get(objective.comments[0]?.[0] ?? '') ?? [...users.entries()].find(([name]) => name.startsWith('carer.'))![1];
  const taskAt = Date.now() - objective.daysAgo * DAY_MS;
  const day = new Date(taskAt).toISOString().slice(0, 10);
  const version = await db.selectFrom('form_versions').select('id').where('form_id', '=', formId).orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
  const photo = files && objective.comments.some((c) => c[3]) ? { png: demoDrawingPng(48), key: await files.write(tenantId, demoDrawingPng(48)) } : null;
  await db.transaction().execute(async (tx) => {
    const task = await tx
      .insertInto('tasks')
      .values({ tenant_id: tenantId, resident_id: resident.id, form_id: formId, creator_id: staffId, title: objective.title, task_date: day, created_at: new Date(taskAt), updated_at: new Date(taskAt) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const completedAt = objective.completed ? new Date(taskAt + 0.8 * DAY_MS) : null;
    const log = await tx
      .insertInto('task_logs')
      .values({
        tenant_id: tenantId,
        task_id: task.id,
        form_version_id: version.id,
        status: objective.completed ? 'completed' : 'current',
        answers: JSON.stringify(objective.answers),
        completed_at: completedAt,
        completed_by: completedAt ? staffId : null,
        created_at: new Date(taskAt),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [by, text, after, withPhoto] of objective.comments) {
      const at = taskAt + after * DAY_MS;
      const id = uuidv7At(at);
      await tx.insertInto('task_log_comments').values({ id, tenant_id: tenantId, task_log_id: log.id, creator_id: users.get(by)!, comment: text, created_at: new Date(at), updated_at: new Date(at) }).execute();
      if (withPhoto && photo) {
        await tx.insertInto('entry_files').values({ tenant_id: tenantId, entry_type: 'task_comment', entry_id: id, role: 'attachment', name: 'dinner.png', mime: 'image/png', size: photo.png.length, storage_key: photo.key }).execute();
      }
    }
    if (objective.review) {
      const at = taskAt + DAY_MS;
      await tx.insertInto('task_log_comments').values({ id: uuidv7At(at), tenant_id: tenantId, task_log_id: log.id, creator_id: resident.user_id, comment: objective.review, is_review: true, created_at: new Date(at), updated_at: new Date(at) }).execute();
      await appendPoints(tx, { tenantId, residentId: resident.id, delta: REVIEW_POINTS, reason: 'task_log_review', sourceId: log.id });
    }
  });
}
