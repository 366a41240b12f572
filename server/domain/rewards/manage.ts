import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { allowedFileType } from '../../../src/contract/file-type';
import { chosenMessages as chosen, messages } from '../../../src/contract/messages';
import { rewardLimits, rewardMessages, staffRewardCreateSchema, staffRewardUpdateSchema, type Reward } from '../../../src/contract/rewards';
import { HttpError } from '../../lib/http-errors';
import { toSensitivity, type Sensitivity } from '../../lib/image-classifier';
import { fieldErrors } from '../../lib/validate';
import type { SignedIn } from '../../plugins/session';
import { staffHome } from '../access';
import { clientIdOf, createdBefore, isUniqueViolation } from '../entries/writes';
import { checkImages, isImageMime, Problems, sanitiseName, storeFiles, type CheckedFile } from '../uploads/checks';
import { uploadedFiles } from '../uploads/form-fields';
import { removeRetiredBytes, retireFiles, type RetiredFile } from '../uploads/retire';
import { rewardForStaff, rewardHome } from './catalogue';

/**
 * Staff manage their home's catalogue (issue 10; additions in docs/api.md): create, change, pause
 * (active false) and withdraw rewards. Only staff of the home (access.ts staffHome: a young person
 * of the home 403, anyone else 404). The picture is one file part `image`, checked like every
 * upload (type by content, then the image check at the strictest sensitivity of the home's young
 * people, who all see it), then stored re-encoded as WebP of at most imageMaxDimension pixels a
 * side: small enough to cache offline, and without the camera's metadata (location, device).
 * Every change publishes `rewards` to the home; a change of name or picture also moves the
 * exchanges of the reward (histories show the reward as it is now) and publishes `reward_history`.
 */
type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body => (request.body && typeof request.body === 'object' ? (request.body as Body) : {});

const STRICTNESS: Record<Sensitivity, number> = { low: 0, medium: 1, high: 2 };

/** The strictest explicit_image_sensitivity among the home's young people (medium when none). */
async function homeSensitivity(app: FastifyInstance, tenantId: string, homeId: string): Promise<Sensitivity> {
  const rows = await app.db
    .selectFrom('residents')
    .leftJoin('resident_settings as s', (join) =>
      join.onRef('s.resident_id', '=', 'residents.id').on('s.name', '=', 'explicit_image_sensitivity').on('s.deleted_at', 'is', null),
    )
    .select('s.value')
    .where('residents.tenant_id', '=', tenantId)
    .where('residents.home_id', '=', homeId)
    .where('residents.deleted_at', 'is', null)
    .execute();
  return rows.map((r) => toSensitivity(r.value)).reduce<Sensitivity>((a, b) => (STRICTNESS[b] > STRICTNESS[a] ? b : a), 'medium');
}

/** The request's picture (part `image`), checked and re-encoded; problems go to `image`. Null when none was sent. */
async function rewardImage(app: FastifyInstance, request: FastifyRequest, tenantId: string, homeId: string, problems: Problems): Promise<CheckedFile | null> {
  const uploads = uploadedFiles(request);
  if (uploads.length === 0) return null;
  for (const upload of uploads) if (upload.field !== 'image') problems.add(upload.field, rewardMessages.imageNotExpected);
  const images = uploads.filter((u) => u.field === 'image');
  if (images.length !== 1) {
    if (images.length > 1) problems.add('image', rewardMessages.oneImage);
    return null;
  }
  const upload = images[0]!;
  const mime = allowedFileType(upload.data, upload.filename);
  if (!mime || !isImageMime(mime)) {
    problems.add('image', messages.fileTypeNotAllowed);
    return null;
  }
  const checked = new Problems();
  await checkImages(app, [{ name: upload.filename, mime, data: upload.data, index: 0 }], await homeSensitivity(app, tenantId, homeId), checked);
  const refusal = checked.errors.files?.[0];
  if (refusal) {
    problems.add('image', refusal);
    return null;
  }
  let data: Buffer;
  try {
    data = await sharp(upload.data, { limitInputPixels: 50_000_000, failOn: 'error' })
      .rotate()
      .resize(rewardLimits.imageMaxDimension, rewardLimits.imageMaxDimension, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    problems.add('image', messages.fileTypeNotAllowed);
    return null;
  }
  const base = sanitiseName(upload.filename).replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'reward';
  return { name: `${base}.webp`, mime: 'image/webp', data, index: 0 };
}

async function answer(app: FastifyInstance, auth: SignedIn, homeId: string, id: string): Promise<Reward> {
  const shown = await rewardForStaff(app, auth.tenantId, homeId, id);
  if (!shown) throw new HttpError(404, chosen.notFound);
  return shown;
}

/**
 * Staff: POST /v1/homes/{id}/rewards (201). A client `id` names the reward (the same person's
 * reward under it: this create sent again, answered as it is now; any other row: 422 `id`).
 */
export async function createReward(app: FastifyInstance, auth: SignedIn, homeId: string, request: FastifyRequest): Promise<Reward> {
  await staffHome(app, auth, homeId);
  const body = bodyOf(request);
  const clientId = clientIdOf(body);
  const again = async () => {
    if (!clientId) return null;
    return createdBefore(app.db, auth, 'rewards', clientId, async () => {
      const home = await rewardHome(app.db, auth.tenantId, clientId);
      return answer(app, auth, home!.home_id, clientId);
    });
  };
  const before = await again();
  if (before) return before;
  const problems = new Problems();
  const parsed = staffRewardCreateSchema.safeParse(body);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  const image = await rewardImage(app, request, auth.tenantId, homeId, problems);
  problems.throwIfAny();
  const input = parsed.data!;

  const stored = await storeFiles(app, auth.tenantId, image ? [image] : []);
  let id: string;
  try {
    id = await app.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('rewards')
        .values({
          ...(clientId ? { id: clientId } : {}),
          tenant_id: auth.tenantId,
          home_id: homeId,
          creator_id: auth.userId,
          name: input.name,
          description: input.description || null,
          points: input.points,
          active: input.active,
          position: input.position,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const files = stored.rows('reward', row.id);
      if (files.length > 0) await tx.insertInto('entry_files').values(files).execute();
      return row.id;
    });
  } catch (error) {
    await stored.cleanup();
    if (clientId && isUniqueViolation(error)) {
      const created = await again();
      if (created) return created;
    }
    throw error;
  }
  app.notifier.publish({ tenantId: auth.tenantId, homeId, residentId: null }, ['rewards']);
  return answer(app, auth, homeId, id);
}

/** The live reward's home, for staff of that home; 404 when withdrawn or unknown. */
async function managedReward(app: FastifyInstance, auth: SignedIn, id: string) {
  const found = await rewardHome(app.db, auth.tenantId, id);
  if (!found) throw new HttpError(404, chosen.notFound);
  await staffHome(app, auth, found.home_id);
  return found;
}

/**
 * Staff: POST /v1/rewards/{id} with `_method=PUT`: the fields sent change; a part `image` replaces
 * the picture, `remove_image=1` drops it. A withdrawn reward no longer changes (404).
 */
export async function updateReward(app: FastifyInstance, auth: SignedIn, id: string, request: FastifyRequest): Promise<Reward> {
  const found = await managedReward(app, auth, id);
  if (found.withdrawn) throw new HttpError(404, chosen.notFound);
  const body = bodyOf(request);
  const problems = new Problems();
  const parsed = staffRewardUpdateSchema.safeParse(body);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  const image = await rewardImage(app, request, auth.tenantId, found.home_id, problems);
  problems.throwIfAny();
  const input = parsed.data!;

  const renamed = input.name !== undefined;
  const stored = await storeFiles(app, auth.tenantId, image ? [image] : []);
  let dropped: RetiredFile[] = [];
  let historyMoved = false;
  try {
    await app.db.transaction().execute(async (tx) => {
      // Changes of one reward take turns (the row lock), and the pictures to drop are read under it:
      // read before, two concurrent replacements would each drop only the old picture and keep both
      // new ones live. Withdrawn meanwhile: 404, as before.
      const locked = await tx.selectFrom('rewards').select('id').where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
      if (!locked) throw new HttpError(404, chosen.notFound);
      const existing = await tx
        .selectFrom('entry_files')
        .select(['id', 'storage_key'])
        .where('tenant_id', '=', auth.tenantId)
        .where('entry_type', '=', 'reward')
        .where('entry_id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
      dropped = image || input.remove_image ? existing : [];
      const pictureChanged = dropped.length > 0 || image !== null;
      await tx
        .updateTable('rewards')
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description || null } : {}),
          ...(input.points !== undefined ? { points: input.points } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
          ...(input.position !== undefined ? { position: input.position } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .execute();
      const files = stored.rows('reward', id);
      if (files.length > 0) await tx.insertInto('entry_files').values(files).execute();
      await retireFiles(tx, dropped);
      if (renamed || pictureChanged) {
        // Histories show the reward as it is now: their rows must be pulled again.
        const moved = await tx.updateTable('reward_exchanges').set({ updated_at: sql`now()` }).where('reward_id', '=', id).executeTakeFirst();
        historyMoved = Number(moved.numUpdatedRows) > 0;
      }
    });
  } catch (error) {
    await stored.cleanup();
    throw error;
  }
  await removeRetiredBytes(app, auth.tenantId, dropped);
  app.notifier.publish({ tenantId: auth.tenantId, homeId: found.home_id, residentId: null }, historyMoved ? ['rewards', 'reward_history'] : ['rewards']);
  return answer(app, auth, found.home_id, id);
}

/**
 * Staff: DELETE /v1/rewards/{id} withdraws the reward (a soft delete: young people get a tombstone,
 * their histories keep showing it). Withdrawing again answers the same tombstone.
 */
export async function withdrawReward(app: FastifyInstance, auth: SignedIn, id: string): Promise<Reward> {
  const found = await managedReward(app, auth, id);
  const changed = await app.db
    .updateTable('rewards')
    .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) > 0) app.notifier.publish({ tenantId: auth.tenantId, homeId: found.home_id, residentId: null }, ['rewards']);
  return answer(app, auth, found.home_id, id);
}
