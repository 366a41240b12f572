import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { formFieldsSchema, type Form, type FormFieldInput } from '../../../src/contract/forms';
import type { Database } from '../../db/schema';
import { syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';
import { documentReadable, readsEveryForm, taskReadable } from '../access';

const f = (column: string) => sql.ref(`f.${column}`);

/**
 * Forms (templates of objectives and form documents): each with its newest version's definition.
 * A row's updated_at is the reader's own (formsQuery): a checkpoint pull brings a form when it is
 * given to them, however long ago it was last changed.
 */
export const FORM_SPEC: ListSpec = {
  fields: { name: { expr: f('name'), type: 'text' } },
  sorts: { name: f('name') },
  defaultSort: [['name', 'asc']],
  relations: [],
  updatedAt: f('sync_updated_at'),
  id: f('id'),
  deletedAt: f('deleted_at'),
};

/**
 * The forms a young person is given, each with the last moment one was given (access.ts
 * readsEveryForm): the versions of their live objectives' logs (when the log was made), of the
 * live form documents they may read (the document's last change or the last change of their right
 * to read it), and every form those versions name in a related-forms question (they show its name).
 * A form given only through form documents they lost (they moved home, the document was shared
 * elsewhere: document_access_changes) and unchanged by staff since is `lost` then: a blank tombstone.
 * Any other form no longer given sends no tombstone: its name stays on the device until sign-out.
 */
function givenForms(auth: SignedIn) {
  const readable = documentReadable(auth, 'doc');
  return sql<{ form_id: string; live: boolean; given_at: Date }>`(
    with given_versions as (
      select log.form_version_id as version_id, log.created_at as given_at, true as live
      from task_logs log join tasks task on task.id = log.task_id
      where log.tenant_id = ${auth.tenantId} and log.deleted_at is null and task.deleted_at is null and ${taskReadable(auth)}
      union all
      select doc.form_version_id, greatest(doc.updated_at, access.changed_at), true
      from documents doc
      left join document_access_changes access on access.document_id = doc.id and access.user_id = ${auth.userId}
      where doc.form_version_id is not null and doc.deleted_at is null and ${readable}
      union all
      select doc.form_version_id, access.changed_at, false
      from document_access_changes access join documents doc on doc.id = access.document_id
      where access.user_id = ${auth.userId} and doc.form_version_id is not null and doc.deleted_at is null
        and doc.content_updated_at <= access.changed_at and (${readable}) is not true
    ), given as (
      select fv.form_id::text as form_id, v.given_at, v.live, fv.fields from given_versions v join form_versions fv on fv.id = v.version_id
    )
    select named.form_id, bool_or(named.live) as live,
      coalesce(max(named.given_at) filter (where named.live), max(named.given_at)) as given_at
    from (
      select g.form_id, g.given_at, g.live from given g
      union all
      select lower(rel.id), g.given_at, g.live from given g
      cross join lateral jsonb_array_elements(case when jsonb_typeof(g.fields) = 'array' then g.fields else '[]'::jsonb end) field
      cross join lateral jsonb_array_elements_text(
        case when field ->> 'kind' = 'related_forms' and jsonb_typeof(field -> 'related_form_ids') = 'array' then field -> 'related_form_ids' else '[]'::jsonb end
      ) rel(id)
    ) named
    group by named.form_id
  )`;
}

/** The forms the signed-in person may read (every form of the site for staff, the forms given to them otherwise), with their newest version. */
export async function formsQuery(app: FastifyInstance, auth: SignedIn) {
  const everyForm = await readsEveryForm(app, auth);
  const readable = app.db
    .selectFrom('forms as form')
    .$if(!everyForm, (q) => q.innerJoin(givenForms(auth).as('given'), (join) => join.on(sql<SqlBool>`given.form_id = form.id::text`)))
    .select([
      'form.id',
      'form.name',
      'form.description',
      'form.created_at',
      (everyForm ? sql<Date | null>`form.deleted_at` : sql<Date | null>`case when given.live then form.deleted_at else given.given_at end`).as('deleted_at'),
      (everyForm ? sql<Date>`form.updated_at` : sql<Date>`case when given.live then greatest(form.updated_at, given.given_at) else given.given_at end`).as('sync_updated_at'),
      (everyForm ? sql<boolean>`false` : sql<boolean>`not given.live`).as('lost'),
    ])
    .where('form.tenant_id', '=', auth.tenantId);
  return app.db
    .selectFrom(readable.as('f'))
    .innerJoin('form_versions as fv', (join) =>
      join.onRef('fv.form_id', '=', 'f.id').on(sql<boolean>`fv.version = (select max(v.version) from form_versions v where v.form_id = f.id)`),
    )
    .select([...syncSelect(FORM_SPEC), 'f.lost', 'f.name', 'f.description', 'fv.id as version_id', 'fv.version', 'fv.fields', isoMicros(f('created_at')).as('created_at')]);
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const EPOCH = '1970-01-01T00:00:00.000000Z';

/** The contract's forms; a lost form (givenForms) as a tombstone with nothing but the id and the times. */
export const presentForms = (rows: Awaited<ReturnType<Awaited<ReturnType<typeof formsQuery>>['execute']>>): Form[] =>
  rows.map((r) =>
    r.lost
      ? { id: r.id, updated_at: r.updated_at, deleted_at: r.deleted_at ?? r.updated_at, name: '', description: null, version_id: NIL_UUID, version: 0, fields: [], created_at: EPOCH }
      : { id: r.id, updated_at: r.updated_at, deleted_at: r.deleted_at, name: r.name, description: r.description, version_id: r.version_id, version: r.version, fields: r.fields, created_at: r.created_at },
  );

/** The newest version of a live form of the tenant, or undefined. */
export async function latestFormVersion(db: Kysely<Database> | Transaction<Database>, tenantId: string, formId: string) {
  return db
    .selectFrom('form_versions as fv')
    .innerJoin('forms as form', 'form.id', 'fv.form_id')
    .select(['fv.id', 'fv.version', 'fv.fields'])
    .where('form.tenant_id', '=', tenantId)
    .where('form.id', '=', formId)
    .where('form.deleted_at', 'is', null)
    .orderBy('fv.version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** JSON with sorted keys: jsonb does not keep key order. */
const stable = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(stable).join(',')}]`
    : value && typeof value === 'object'
      ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`
      : JSON.stringify(value ?? null);

/**
 * A form's definition as of now (seed, later an admin screen): a new version when the fields differ
 * from the newest one, nothing otherwise. The fields are checked against the contract first.
 */
export async function saveForm(db: Kysely<Database>, tenantId: string, name: string, description: string | null, fields: FormFieldInput[]): Promise<string> {
  const parsed = formFieldsSchema.parse(fields);
  await db
    .insertInto('forms')
    .values({ tenant_id: tenantId, name, description })
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
    .execute();
  const form = await db.selectFrom('forms').select('id').where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirstOrThrow();
  const latest = await latestFormVersion(db, tenantId, form.id);
  if (!latest || stable(latest.fields) !== stable(parsed)) {
    await db
      .insertInto('form_versions')
      .values({ tenant_id: tenantId, form_id: form.id, version: (latest?.version ?? 0) + 1, fields: JSON.stringify(parsed) })
      .execute();
  }
  return form.id;
}
