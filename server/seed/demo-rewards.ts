import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { decidePoints, exchangePoints } from '../domain/rewards/exchanges';
import type { BlobStore } from '../lib/blob-store';
import { uuidv7At } from '../lib/uuidv7';
import { rewardPicture, type RewardPicture } from './reward-pictures';

/**
 * Demo rewards (issue 10): a catalogue per home with real pictures (seed/reward-pictures.ts), and
 * for Jamie one approved, one pending and one denied exchange, made through the domain's own
 * exchange and decision (domain/rewards/exchanges.ts) so the ledger and the balance agree. With
 * Jamie's 140 points (120 opening + 20 for a review) the exchanges leave 70: the bedtime, the book
 * and the pizza night are affordable, the gaming time, the cinema and the day out are not.
 * Idempotent: a reward is written only when its home has none of that name (live, paused or
 * withdrawn: a reward staff withdrew is not brought back); the exchanges only when Jamie has none.
 * Without `files` (no file store) rewards have no picture.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

interface DemoReward {
  name: string;
  description: string;
  points: number;
  picture: RewardPicture;
}

const CATALOGUES: Record<string, DemoReward[]> = {
  'Willow House': [
    { name: 'Later bedtime', description: 'Stay up an extra hour on a Friday or Saturday night.', points: 30, picture: 'bedtime' },
    { name: 'A new book', description: 'Choose any book from the bookshop in town.', points: 40, picture: 'book' },
    { name: 'Pizza night', description: 'You pick the pizza place and the toppings for everyone.', points: 60, picture: 'pizza' },
    { name: 'Gaming time', description: 'An extra two hours on the console at the weekend.', points: 80, picture: 'controller' },
    { name: 'Cinema trip', description: 'A film of your choice with a member of staff, popcorn included.', points: 100, picture: 'cinema' },
    { name: 'A day out', description: 'A day trip you plan: the coast, a theme park or a match.', points: 200, picture: 'dayOut' },
  ],
  'Cedar Lodge': [
    { name: 'Extra phone time', description: 'An extra hour with your phone one evening.', points: 20, picture: 'phone' },
    { name: 'Choose the takeaway', description: 'Pick the Friday takeaway for the house.', points: 40, picture: 'takeaway' },
    { name: 'Skate park trip', description: 'An afternoon at the skate park with staff.', points: 50, picture: 'skateboard' },
  ],
  'Northfield House': [
    { name: 'Film night pick', description: 'Choose the film for the house film night.', points: 15, picture: 'popcorn' },
    { name: 'Later bedtime', description: 'Stay up an extra hour one weekend night.', points: 25, picture: 'bedtime' },
  ],
};

/** Jamie's history: [reward name, days ago, decision (none: pending), decided by, note]. */
const JAMIE_HISTORY: [string, number, 'approved' | 'denied' | null, string, string | null][] = [
  ['A new book', 9, 'approved', 'carer.ali', 'We can go to the bookshop on Saturday.'],
  ['Pizza night', 5, 'denied', 'manager.priya', 'Pizza night is already planned for next week, so your points are back. Pick again any time.'],
  ['Later bedtime', 1, null, 'carer.ali', null],
];

export async function seedDemoRewards(db: Kysely<Database>, tenantId: string, files?: BlobStore): Promise<void> {
  const homes = await db.selectFrom('homes').select(['id', 'name']).where('tenant_id', '=', tenantId).execute();
  for (const home of homes) {
    const catalogue = CATALOGUES[home.name] ?? [];
    const existing = new Set(
      (await db.selectFrom('rewards').select('name').where('tenant_id', '=', tenantId).where('home_id', '=', home.id).execute()).map((r) => r.name),
    );
    for (const [position, reward] of catalogue.entries()) {
      if (existing.has(reward.name)) continue;
      const picture = files ? await rewardPicture(reward.picture) : null;
      const key = files && picture ? await files.write(tenantId, picture) : null;
      await db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('rewards')
          .values({ tenant_id: tenantId, home_id: home.id, name: reward.name, description: reward.description, points: reward.points, position })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (picture && key) {
          await tx
            .insertInto('entry_files')
            .values({ tenant_id: tenantId, entry_type: 'reward', entry_id: row.id, role: 'attachment', name: `${reward.picture}.webp`, mime: 'image/webp', size: picture.length, storage_key: key })
            .execute();
        }
      });
    }
  }
  await seedJamieHistory(db, tenantId);
}

async function seedJamieHistory(db: Kysely<Database>, tenantId: string): Promise<void> {
  const jamie = await db
    .selectFrom('residents')
    .innerJoin('users', 'users.id', 'residents.user_id')
    .select(['residents.id', 'residents.home_id', 'users.id as user_id'])
    .where('residents.tenant_id', '=', tenantId)
    .where('users.username', '=', 'jamie')
    .executeTakeFirst();
  if (!jamie) return;
  if (await db.selectFrom('reward_exchanges').select('id').where('resident_id', '=', jamie.id).executeTakeFirst()) return;
  const users = new Map((await db.selectFrom('users').select(['id', 'username']).where('tenant_id', '=', tenantId).execute()).map((u) => [u.username, u.id]));
  const rewards = new Map(
    (await db.selectFrom('rewards').select(['id', 'name']).where('home_id', '=', jamie.home_id).where('deleted_at', 'is', null).execute()).map((r) => [r.name, r.id]),
  );
  for (const [name, daysAgo, decision, by, note] of JAMIE_HISTORY) {
    const rewardId = rewards.get(name);
    if (!rewardId) continue;
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    const id = uuidv7At(at.getTime());
    await exchangePoints(db, { tenantId, residentId: jamie.id, rewardId, id, creatorId: jamie.user_id, at });
    if (decision) {
      await decidePoints(db, {
        tenantId, residentId: jamie.id, exchangeId: id, decision, deciderId: users.get(by)!, note, at: new Date(at.getTime() + 0.3 * DAY_MS),
      });
    }
  }
}
