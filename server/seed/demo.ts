import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema';
import { encrypt, type Keys } from '../lib/crypto';
import { hashPassword } from '../lib/passwords';
import { hashRecoveryCode } from '../lib/recovery-codes';
import { seedDemoEntries } from './demo-entries';
import { seedDemoObjectives } from './demo-objectives';
import { seedDemoRewards } from './demo-rewards';
import { seedDemoDocuments } from './demo-documents';
import type { BlobStore } from '../lib/blob-store';

/**
 * Demo data, safe to run at every start: fixed rows are inserted only when missing, and the
 * rolling rows (rota for the next two weeks, Jamie's calendar a month either side of today) are
 * topped up so the demo never looks stale.
 */
export const DEMO_PASSWORD = 'hearth-demo-1';
/** Riley's authenticator secret (SHA1, 6 digits, 30 s): add it to any authenticator app. */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** Riley's recovery codes; each works once (a database reset brings them back). */
export const DEMO_RECOVERY_CODES = [
  'demo2-aaaaa', 'demo2-bbbbb', 'demo2-ccccc', 'demo2-ddddd', 'demo2-eeeee',
  'demo2-fffff', 'demo2-ggggg', 'demo2-hhhhh', 'demo2-jjjjj', 'demo2-kkkkk',
] as const;

export interface DemoAccount {
  site: string;
  username: string;
  note: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { site: 'demo', username: 'jamie', note: 'young person, Willow House, no two-factor' },
  { site: 'demo', username: 'riley', note: `young person, authenticator two-factor (secret ${DEMO_TOTP_SECRET})` },
  { site: 'demo', username: 'sam', note: 'young person, Cedar Lodge' },
  { site: 'demo', username: 'carer.ali', note: 'employee (the app refuses staff)' },
  { site: 'northfield', username: 'alex', note: 'young person on a site that requires two-factor' },
];

type Kind = 'young_person' | 'employee' | 'manager';
interface DemoUser {
  username: string;
  first: string;
  last: string;
  kind: Kind;
  home: string;
  email?: string;
  resident?: { preferred: string; points: number; flags: 0 | 1 };
}

const SITES: { slug: string; name: string; mfaPolicy: 'optional' | 'required'; homes: string[]; users: DemoUser[] }[] = [
  {
    slug: 'demo',
    name: "Demo Children's Homes",
    mfaPolicy: 'optional',
    homes: ['Willow House', 'Cedar Lodge'],
    users: [
      { username: 'jamie', first: 'Jamie', last: 'Rivers', kind: 'young_person', home: 'Willow House', resident: { preferred: 'Jamie', points: 120, flags: 1 } },
      { username: 'riley', first: 'Riley', last: 'Morgan', kind: 'young_person', home: 'Willow House', resident: { preferred: 'Riles', points: 60, flags: 1 } },
      { username: 'sam', first: 'Sam', last: 'Taylor', kind: 'young_person', home: 'Cedar Lodge', resident: { preferred: 'Sam', points: 35, flags: 1 } },
      { username: 'carer.ali', first: 'Ali', last: 'Hassan', kind: 'employee', home: 'Willow House', email: 'ali.hassan@demo.hearth.localhost' },
      { username: 'carer.beth', first: 'Beth', last: 'Okafor', kind: 'employee', home: 'Willow House', email: 'beth.okafor@demo.hearth.localhost' },
      { username: 'carer.dan', first: 'Dan', last: 'Price', kind: 'employee', home: 'Willow House', email: 'dan.price@demo.hearth.localhost' },
      { username: 'manager.priya', first: 'Priya', last: 'Shah', kind: 'manager', home: 'Willow House', email: 'priya.shah@demo.hearth.localhost' },
      { username: 'carer.chris', first: 'Chris', last: 'Lee', kind: 'employee', home: 'Cedar Lodge', email: 'chris.lee@demo.hearth.localhost' },
    ],
  },
  {
    slug: 'northfield',
    name: 'Northfield Care',
    mfaPolicy: 'required',
    homes: ['Northfield House'],
    users: [
      { username: 'alex', first: 'Alex', last: 'Carter', kind: 'young_person', home: 'Northfield House', resident: { preferred: 'Alex', points: 10, flags: 1 } },
      { username: 'carer.jo', first: 'Jo', last: 'Evans', kind: 'employee', home: 'Northfield House', email: 'jo.evans@northfield.hearth.localhost' },
    ],
  },
];

const USER_TYPE: Record<Kind, number> = { young_person: 1, employee: 2, manager: 3 };
const EVENT_TYPES = ['Appointment', 'School', 'Family time', 'Activity', 'Health'] as const;
const AVATAR_COLOURS = ['#f97316', '#0ea5e9', '#22c55e', '#a855f7', '#e11d48', '#14b8a6', '#eab308'];

/** A small SVG avatar with initials; served with a sandboxing CSP (routes/users/photo.ts). */
function avatarSvg(first: string, last: string): string {
  const initials = `${first[0] ?? ''}${last[0] ?? ''}`.toUpperCase().replace(/[^A-Z]/g, '');
  const colour = AVATAR_COLOURS[(first.length * 7 + last.length) % AVATAR_COLOURS.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="64" fill="${colour}"/><text x="64" y="78" font-family="sans-serif" font-size="48" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
}

/** 'YYYY-MM-DD' of a local calendar day, offset from today. */
export function localDay(offsetDays: number, from = new Date()): string {
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + offsetDays);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** `files`: where uploaded files live (app.ts blobStoreFor); without it, demo drawings are skipped. */
export async function seedDemo(db: Kysely<Database>, keys: Keys, options: { files?: BlobStore } = {}): Promise<void> {
  let passwordHash: string | null = null;
  const demoHash = async () => (passwordHash ??= await hashPassword(DEMO_PASSWORD));

  for (const site of SITES) {
    await db
      .insertInto('tenants')
      .values({ slug: site.slug, name: site.name, mfa_policy: site.mfaPolicy })
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
    const tenant = await db.selectFrom('tenants').select('id').where('slug', '=', site.slug).executeTakeFirstOrThrow();
    const tenantId = tenant.id;

    await db
      .insertInto('homes')
      .values(site.homes.map((name) => ({ tenant_id: tenantId, name })))
      .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
      .execute();
    const homes = new Map(
      (await db.selectFrom('homes').select(['id', 'name']).where('tenant_id', '=', tenantId).execute()).map((h) => [h.name, h.id]),
    );
    await db
      .insertInto('event_types')
      .values(EVENT_TYPES.map((name) => ({ tenant_id: tenantId, name })))
      .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
      .execute();

    for (const person of site.users) {
      const homeId = homes.get(person.home);
      if (!homeId) throw new Error(`Seed: unknown home ${person.home}`);
      let user = await db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where(sql<boolean>`lower(username) = ${person.username}`)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!user) {
        user = await db
          .insertInto('users')
          .values({
            tenant_id: tenantId,
            username: person.username,
            email: person.email ?? null,
            password_hash: await demoHash(),
            first_name: person.first,
            last_name: person.last,
            user_type_id: USER_TYPE[person.kind],
            theme_id: person.kind === 'young_person' ? 1 : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      }
      const userId = user.id;
      await db
        .insertInto('user_photos')
        .values({ tenant_id: tenantId, user_id: userId, mime: 'image/svg+xml', bytes: Buffer.from(avatarSvg(person.first, person.last)) })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      if (person.resident) {
        const flag = person.resident.flags;
        await db
          .insertInto('residents')
          .values({
            tenant_id: tenantId,
            user_id: userId,
            home_id: homeId,
            preferred_name: person.resident.preferred,
            reward_points: person.resident.points,
            journal_enabled: flag,
            voice_enabled: flag,
            rewards_enabled: flag,
          })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .execute();
      } else {
        await db
          .insertInto('home_staff')
          .values({ tenant_id: tenantId, home_id: homeId, user_id: userId })
          .onConflict((oc) => oc.columns(['home_id', 'user_id']).doNothing())
          .execute();
      }
      if (site.slug === 'demo' && person.username === 'riley') await seedRileyTwoFactor(db, keys, tenantId, userId);
    }

    await seedDemoEntries(db, tenantId, options.files);
    await seedDemoObjectives(db, tenantId, options.files);
    await seedDemoRewards(db, tenantId, options.files);
    await seedDemoDocuments(db, tenantId, options.files);
  }
  await topUpDemo(db);
}

/** What a top-up of the rolling demo rows added, per site (plugins/demo-top-up.ts notifies it). */
export interface TopUp {
  tenantId: string;
  rota: number;
  calendar: number;
}

/** The rolling rows only: the rota for the next two weeks and Jamie's calendar around today. */
export async function topUpDemo(db: Kysely<Database>): Promise<TopUp[]> {
  const results: TopUp[] = [];
  for (const site of SITES) {
    const tenant = await db.selectFrom('tenants').select('id').where('slug', '=', site.slug).executeTakeFirst();
    if (!tenant) continue;
    const rota = await topUpRota(db, tenant.id);
    const calendar = site.slug === 'demo' ? await topUpJamieCalendar(db, tenant.id) : 0;
    results.push({ tenantId: tenant.id, rota, calendar });
  }
  return results;
}

async function seedRileyTwoFactor(db: Kysely<Database>, keys: Keys, tenantId: string, userId: string): Promise<void> {
  // Re-encrypted at every start so the demo keeps working if APP_KEY changed; the used step stays.
  const secret = encrypt(keys.secrets, DEMO_TOTP_SECRET);
  await db
    .insertInto('mfa_methods')
    .values({ tenant_id: tenantId, user_id: userId, method: 'authenticator', secret_encrypted: secret, confirmed_at: sql`now()` })
    .onConflict((oc) => oc.columns(['user_id', 'method']).doUpdateSet({ secret_encrypted: secret, confirmed_at: sql`coalesce(mfa_methods.confirmed_at, now())`, deleted_at: null }))
    .execute();
  await db
    .insertInto('recovery_codes')
    .values(DEMO_RECOVERY_CODES.map((code) => ({ tenant_id: tenantId, user_id: userId, code_hash: hashRecoveryCode(keys.codes, code) })))
    .onConflict((oc) => oc.columns(['user_id', 'code_hash']).doNothing())
    .execute();
}

const SHIFTS = [
  { starts_at: '07:00', ends_at: '15:00' },
  { starts_at: '14:30', ends_at: '22:30' },
  { starts_at: '22:00', ends_at: '07:30' },
];

async function topUpRota(db: Kysely<Database>, tenantId: string): Promise<number> {
  const staff = await db
    .selectFrom('home_staff')
    .select(['home_id', 'user_id'])
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('user_id')
    .execute();
  const rows = staff.flatMap((s, i) =>
    Array.from({ length: 14 }, (_, day) => ({ tenant_id: tenantId, home_id: s.home_id, user_id: s.user_id, shift_date: localDay(day), ...SHIFTS[(i + day) % SHIFTS.length]! })),
  );
  if (rows.length === 0) return 0;
  const inserted = await db
    .insertInto('rota_shifts')
    .values(rows)
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'shift_date']).doNothing())
    .returning('id')
    .execute();
  return inserted.length;
}

interface DemoEvent {
  kind: string;
  type: (typeof EVENT_TYPES)[number];
  title: string;
  description: string;
  start: string | null;
  end: string | null;
}

/** What happens on a given day for Jamie: fixed rules on the date, so re-runs agree. */
function jamieEventsOn(date: Date): DemoEvent[] {
  const events: DemoEvent[] = [];
  const weekday = date.getDay();
  const dayOfMonth = date.getDate();
  const week = Math.floor(date.getTime() / (7 * 24 * 3600 * 1000));
  if (weekday === 6) events.push({ kind: 'football', type: 'Activity', title: 'Football training', description: 'Bring boots and a water bottle.', start: '10:00', end: '11:30' });
  if (weekday === 0 && week % 2 === 0) events.push({ kind: 'family', type: 'Family time', title: 'Family visit', description: 'Visit with Mum and Nan at the family centre.', start: '14:00', end: '16:00' });
  if (weekday === 3) events.push({ kind: 'keyworker', type: 'Appointment', title: 'Key-worker catch-up', description: 'Time with Ali to talk about the week.', start: '17:00', end: '17:45' });
  if (dayOfMonth === 12) events.push({ kind: 'dentist', type: 'Health', title: 'Dentist check-up', description: 'Smile Dental, High Street.', start: '09:30', end: '10:15' });
  if (dayOfMonth === 20) events.push({ kind: 'trip', type: 'School', title: 'School trip to the Science Museum', description: 'Packed lunch needed. Coach leaves school at 8:30.', start: '08:30', end: '16:00' });
  return events;
}

async function topUpJamieCalendar(db: Kysely<Database>, tenantId: string): Promise<number> {
  const jamie = await db
    .selectFrom('residents')
    .innerJoin('users', 'users.id', 'residents.user_id')
    .select('residents.id')
    .where('residents.tenant_id', '=', tenantId)
    .where('users.username', '=', 'jamie')
    .executeTakeFirst();
  if (!jamie) return 0;
  const types = new Map(
    (await db.selectFrom('event_types').select(['id', 'name']).where('tenant_id', '=', tenantId).execute()).map((t) => [t.name, t.id]),
  );
  const today = new Date();
  const planned: { key: string; day: string; event: DemoEvent }[] = [];
  for (let offset = -30; offset <= 30; offset++) {
    const day = localDay(offset, today);
    const date = new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset);
    for (const event of jamieEventsOn(date)) planned.push({ key: `demo:jamie:${event.kind}:${day}`, day, event });
  }
  if (planned.length === 0) return 0;
  return db.transaction().execute(async (tx: Transaction<Database>) => {
    const created = await tx
      .insertInto('events')
      .values(planned.map((p) => ({ tenant_id: tenantId, title: p.event.title, description: p.event.description, event_type_id: types.get(p.event.type) ?? null, seed_key: p.key })))
      .onConflict((oc) => oc.columns(['tenant_id', 'seed_key']).doNothing())
      .returning(['id', 'seed_key'])
      .execute();
    if (created.length === 0) return 0;
    const byKey = new Map(planned.map((p) => [p.key, p]));
    await tx
      .insertInto('event_instances')
      .values(
        created.map((row) => {
          const p = byKey.get(row.seed_key ?? '')!;
          return { tenant_id: tenantId, event_id: row.id, resident_id: jamie.id, start_date: p.day, start_time: p.event.start, end_date: p.day, end_time: p.event.end };
        }),
      )
      .execute();
    return created.length;
  });
}
