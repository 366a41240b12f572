import { deflateSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { BlobStore } from '../lib/blob-store';
import type { EntryKind } from '../../src/contract/entry-kind';
import type { Database } from '../db/schema';
import { VOICE_CATEGORIES } from '../db/migrations/0002-offline-data';
import { VOICE_CATEGORY_DESCRIPTIONS } from '../db/migrations/0003-entry-files';
import { uuidv7At } from '../lib/uuidv7';

/**
 * Demo data of the offline data layer: staff job titles, Jamie's key worker, the image-sensitivity
 * setting, voice categories, and journal and voice entries with comment threads for Jamie and Sam.
 * Idempotent: lookups are inserted when missing; a young person's entries are written only when
 * they have none yet. Jamie ends with three threads awaiting his answer (two journal, one voice),
 * plus one closed conversation (a locked journal entry with a staff comment), which awaits nobody.
 */
const JOB_TITLES: Record<string, string> = {
  'carer.ali': 'Key worker',
  'carer.beth': 'Residential care worker',
  'carer.dan': 'Senior residential care worker',
  'manager.priya': 'Registered manager',
  'carer.chris': 'Residential care worker',
  'carer.jo': 'Residential care worker',
};

const BIRTH_DATES: Record<string, string> = { jamie: '2011-05-14', riley: '2010-09-02', sam: '2012-01-23', alex: '2011-11-30' };

interface DemoComment {
  by: string;
  text: string;
  /** Days after the entry. */
  after: number;
  reaction?: string;
}

interface DemoEntry {
  type: EntryKind;
  daysAgo: number;
  description: string;
  reaction?: string;
  category?: (typeof VOICE_CATEGORIES)[number];
  comments: DemoComment[];
  /** Days after the entry when staff closed the conversation (locked_at). */
  lockedAfter?: number;
}

const ENTRIES: Record<string, DemoEntry[]> = {
  jamie: [
    { type: 'journal', daysAgo: 20, description: 'Scored a goal at football today! Coach said my passing is getting better.', reaction: '⚽', comments: [
      { by: 'carer.ali', text: "That's brilliant Jamie, well done! Which foot did you score with?", after: 0.2 },
      { by: 'jamie', text: 'My left one!! Thanks Ali', after: 0.5 },
    ] },
    { type: 'journal', daysAgo: 10, description: 'Feeling a bit nervous about the science test next week.', comments: [
      { by: 'carer.beth', text: "You've been revising loads. Shall we go through it together on Tuesday?", after: 0.3 },
    ] },
    { type: 'journal', daysAgo: 4, description: "Nan's visit was really nice. We made pancakes and she told me about when Mum was little.", reaction: '😊', comments: [
      { by: 'carer.ali', text: 'Pancakes! Save me one next time.', after: 0.4, reaction: '🥞' },
      { by: 'carer.dan', text: 'Lovely to hear, Jamie. Nan was telling us how proud she is of you.', after: 1.1 },
    ] },
    { type: 'journal', daysAgo: 1, description: 'Tired today. Stayed up too late watching videos.', comments: [] },
    { type: 'voice', daysAgo: 15, category: 'Raise a concern', description: 'The lock on the upstairs bathroom door is broken.', comments: [
      { by: 'manager.priya', text: "Thank you for telling us. It has been reported and will be fixed on Friday.", after: 0.5 },
      { by: 'jamie', text: 'ok thanks', after: 1 },
    ] },
    { type: 'voice', daysAgo: 8, category: 'Make a complaint', description: 'The wifi keeps dropping in the evenings and I miss my games with my friends.', comments: [
      { by: 'carer.dan', text: "Sorry about that. We've called the provider and they changed the router. Is it better now?", after: 2 },
    ] },
    { type: 'voice', daysAgo: 5, category: 'Message staff', description: 'Can I have two friends over on Saturday afternoon?', comments: [] },
    { type: 'voice', daysAgo: 2, category: 'Share good news', description: 'I got a merit at school for my history project!', comments: [] },
  ],
  sam: [
    { type: 'journal', daysAgo: 6, description: 'Went to the skate park with Chris. Landed my first kickflip.', comments: [
      { by: 'carer.chris', text: 'Saw it with my own eyes. Legend!', after: 0.1 },
    ] },
    { type: 'voice', daysAgo: 3, category: 'Message staff', description: 'Can we get a new controller for the games room?', comments: [] },
  ],
};

const DAY_MS = 24 * 60 * 60 * 1000;

export async function seedDemoEntries(db: Kysely<Database>, tenantId: string, files?: BlobStore): Promise<void> {
  await db
    .insertInto('voice_categories')
    .values(VOICE_CATEGORIES.map((name, position) => ({ tenant_id: tenantId, name, position, description: VOICE_CATEGORY_DESCRIPTIONS[name] ?? null })))
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
    .execute();
  for (const [position, name] of VOICE_CATEGORIES.entries()) {
    await db
      .updateTable('voice_categories')
      .set({ description: VOICE_CATEGORY_DESCRIPTIONS[name] ?? null, position, updated_at: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('name', '=', name)
      .where('description', 'is', null)
      .execute();
  }
  const users = new Map(
    (await db.selectFrom('users').select(['id', 'username']).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).execute()).map((u) => [
      u.username.toLowerCase(),
      u.id,
    ]),
  );
  for (const [username, title] of Object.entries(JOB_TITLES)) {
    const id = users.get(username);
    if (id) await db.updateTable('users').set({ job_title: title }).where('id', '=', id).where('job_title', 'is', null).execute();
  }
  const residents = await db
    .selectFrom('residents')
    .innerJoin('users', 'users.id', 'residents.user_id')
    .select(['residents.id', 'users.username'])
    .where('residents.tenant_id', '=', tenantId)
    .execute();
  for (const resident of residents) {
    await db
      .insertInto('resident_settings')
      .values({ tenant_id: tenantId, resident_id: resident.id, name: 'explicit_image_sensitivity', value: 'medium' })
      .onConflict((oc) => oc.columns(['resident_id', 'name']).doNothing())
      .execute();
    const birth = BIRTH_DATES[resident.username];
    if (birth) await db.updateTable('residents').set({ date_of_birth: birth }).where('id', '=', resident.id).where('date_of_birth', 'is', null).execute();
  }
  const jamie = residents.find((r) => r.username === 'jamie');
  const ali = users.get('carer.ali');
  if (jamie && ali) {
    await db.updateTable('residents').set({ key_worker_id: ali }).where('id', '=', jamie.id).where('key_worker_id', 'is', null).execute();
  }

  const categories = new Map(
    (await db.selectFrom('voice_categories').select(['id', 'name']).where('tenant_id', '=', tenantId).execute()).map((c) => [c.name, c.id]),
  );
  for (const resident of residents) {
    const entries = ENTRIES[resident.username];
    if (!entries) continue;
    const residentUserId = users.get(resident.username)!;
    const existing = await db.selectFrom('journal_entries').select('id').where('resident_id', '=', resident.id).limit(1).executeTakeFirst();
    if (existing) continue;
    await db.transaction().execute(async (tx) => {
      const keyWorkerId = resident.username === 'jamie' ? (ali ?? null) : null;
      for (const entry of entries) await writeEntry(tx, tenantId, resident.id, residentUserId, entry, users, categories, keyWorkerId);
    });
  }
  if (jamie && ali) await seedJournalExtras(db, tenantId, jamie.id, users.get('jamie')!, ali, files);
  if (jamie) await seedLockedEntry(db, tenantId, jamie.id, users.get('jamie')!, users, categories);
}

/** "YYYY-MM-DD" and "HH:MM" in Europe/London, the home's time (journal entry_date, entry_time). */
function londonDateTime(at: number): { entry_date: string; entry_time: string } {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(at))
      .map((x) => [x.type, x.value]),
  );
  return { entry_date: `${p.year}-${p.month}-${p.day}`, entry_time: `${p.hour}:${p.minute}` };
}

/** A small RGBA PNG made with zlib: a yellow sun on a transparent background. */
export function demoDrawingPng(size = 32): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - size / 2, y - size / 2);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      if (d < size / 4) raw.set([255, 204, 0, 255], o);
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const DRAWING_ENTRY = 'Drew the sun from the garden this morning.';
const SHARED_ENTRY = 'Ali, can we talk about the football trials tomorrow?';

/** Added after the first seed: a drawing and an entry shared with Ali. Each is written once. */
async function seedJournalExtras(db: Kysely<Database>, tenantId: string, residentId: string, jamieUserId: string, aliUserId: string, files?: BlobStore) {
  const has = async (description: string) =>
    Boolean(await db.selectFrom('journal_entries').select('id').where('resident_id', '=', residentId).where('description', '=', description).executeTakeFirst());
  const at = Date.now() - 3 * DAY_MS;
  if (files && !(await has(DRAWING_ENTRY))) {
    const png = demoDrawingPng();
    const key = await files.write(tenantId, png);
    await db.transaction().execute(async (tx) => {
      const entry = await tx
        .insertInto('journal_entries')
        .values({ tenant_id: tenantId, resident_id: residentId, creator_id: jamieUserId, description: DRAWING_ENTRY, reaction: '😌', ...londonDateTime(at), created_at: new Date(at), updated_at: new Date(at), content_updated_at: new Date(at) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx.insertInto('entry_files').values({ tenant_id: tenantId, entry_type: 'journal', entry_id: entry.id, role: 'canvas', name: 'drawing.png', mime: 'image/png', size: png.length, storage_key: key }).execute();
    });
  }
  if (!(await has(SHARED_ENTRY))) {
    const when = Date.now() - 2 * DAY_MS;
    await db
      .insertInto('journal_entries')
      .values({ tenant_id: tenantId, resident_id: residentId, creator_id: jamieUserId, description: SHARED_ENTRY, reaction: '🤞', shared_with: [aliUserId], ...londonDateTime(when), created_at: new Date(when), updated_at: new Date(when), content_updated_at: new Date(when) })
      .execute();
  }
}

/**
 * Added after the first seed, written once: a conversation staff closed, so the closed state can be
 * seen (read-only entry and thread). Older than every other thread, so it is never "the newest".
 */
const LOCKED_ENTRY: DemoEntry = {
  type: 'journal',
  daysAgo: 30,
  description: 'Had a row with Sam about the TV remote. Still annoyed.',
  reaction: '😤',
  comments: [
    { by: 'carer.beth', text: 'Thanks for writing this down, Jamie. We talked it through at tea time and made a TV rota, so I am closing this one. Start a new entry any time.', after: 0.3 },
  ],
  lockedAfter: 0.35,
};

async function seedLockedEntry(db: Kysely<Database>, tenantId: string, residentId: string, jamieUserId: string, users: Map<string, string>, categories: Map<string, string>) {
  const has = await db.selectFrom('journal_entries').select('id').where('resident_id', '=', residentId).where('description', '=', LOCKED_ENTRY.description).executeTakeFirst();
  if (has || !LOCKED_ENTRY.comments.every((c) => users.has(c.by))) return;
  await db.transaction().execute((tx) => writeEntry(tx, tenantId, residentId, jamieUserId, LOCKED_ENTRY, users, categories, users.get('carer.ali') ?? null));
}

async function writeEntry(
  db: Kysely<Database>,
  tenantId: string,
  residentId: string,
  residentUserId: string,
  entry: DemoEntry,
  users: Map<string, string>,
  categories: Map<string, string>,
  keyWorkerId: string | null,
): Promise<void> {
  const at = Date.now() - entry.daysAgo * DAY_MS;
  // Staff read and answer only what was shared with them (domain/access.ts): each demo
  // entry is shared with the key worker and whoever comments on it; voice also with management.
  const staffCommenters = entry.comments.map((c) => users.get(c.by)).filter((id): id is string => Boolean(id) && id !== residentUserId);
  const sharedWith = [...new Set([...(keyWorkerId ? [keyWorkerId] : []), ...staffCommenters])];
  const lastComment = entry.comments[entry.comments.length - 1];
  const touched = new Date(Math.max(lastComment ? at + lastComment.after * DAY_MS : at, entry.lockedAfter !== undefined ? at + entry.lockedAfter * DAY_MS : at));
  const lockedAt = entry.lockedAfter !== undefined ? new Date(at + entry.lockedAfter * DAY_MS) : null;
  const common = {
    tenant_id: tenantId,
    resident_id: residentId,
    creator_id: residentUserId,
    description: entry.description,
    reaction: entry.reaction ?? null,
    created_at: new Date(at),
    updated_at: touched,
    // Written once, then only commented on (the column's default, now, would read as a later edit).
    content_updated_at: new Date(at),
    locked_at: lockedAt,
    shared_with: sharedWith,
    shared_with_management: entry.type === 'voice',
  };
  const categoryId = entry.category ? (categories.get(entry.category) ?? null) : null;
  const created =
    entry.type === 'journal'
      ? await db.insertInto('journal_entries').values({ ...common, ...londonDateTime(at) }).returning('id').executeTakeFirstOrThrow()
      : await db.insertInto('voice_entries').values({ ...common, entry_date: new Date(at), category_id: categoryId! }).returning('id').executeTakeFirstOrThrow();

  // The same rules as routes/comments/create.ts, replayed over the thread.
  type Thread = { comment_id: string; count: number; awaiting: boolean; reaction: string | null };
  let feedback = null as Thread | null;
  for (const comment of entry.comments) {
    const when = new Date(at + comment.after * DAY_MS);
    const id = uuidv7At(when.getTime());
    const creatorId = users.get(comment.by);
    if (!creatorId) throw new Error(`Seed: unknown user ${comment.by}`);
    await db
      .insertInto('entry_comments')
      .values({ id, tenant_id: tenantId, entry_type: entry.type, entry_id: created.id, creator_id: creatorId, comment: comment.text, reaction: comment.reaction ?? null, created_at: when, updated_at: when })
      .execute();
    const reaction = comment.reaction ?? null;
    if (creatorId !== residentUserId) feedback = { comment_id: id, count: (feedback?.count ?? 0) + 1, awaiting: true, reaction };
    else if (feedback) feedback = { comment_id: id, count: 0, awaiting: false, reaction };
  }
  if (!feedback) return;
  await db
    .insertInto('resident_feedback')
    .values({
      tenant_id: tenantId,
      type: entry.type,
      resident_id: residentId,
      entry_id: created.id,
      comment_id: feedback.comment_id,
      count: feedback.count,
      awaiting_resident_response: feedback.awaiting,
      locked_at: lockedAt,
      reaction: feedback.reaction,
      category_id: categoryId,
      created_at: touched,
      updated_at: touched,
    })
    .execute();
}
