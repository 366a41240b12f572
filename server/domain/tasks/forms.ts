import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import { formFieldsSchema, type Form, type FormFieldInput } from '../../../src/contract/forms';
import type { Database } from '../../db/schema';
import { syncColumns, syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';

/** Forms (templates of objectives, later documents): each with its newest version's definition. */
export const FORM_SPEC: ListSpec = {
  fields: { name: { expr: sql.ref('form.name'), type: 'text' } },
  sorts: { name: sql.ref('form.name') },
  defaultSort: [['name', 'asc']],
  relations: [],
  ...syncColumns('form'),
};

export function formsQuery(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom('forms as form')
    .innerJoin('form_versions as fv', (join) =>
      join.onRef('fv.form_id', '=', 'form.id').on(sql<boolean>`fv.version = (select max(v.version) from form_versions v where v.form_id = form.id)`),
    )
    .select([
      ...syncSelect(FORM_SPEC),
      'form.name',
      'form.description',
      'fv.id as version_id',
      'fv.version',
      'fv.fields',
      isoMicros(sql.ref('form.created_at')).as('created_at'),
    ])
    .where('form.tenant_id', '=', auth.tenantId);
}

export const presentForms = (rows: Awaited<ReturnType<ReturnType<typeof formsQuery>['execute']>>): Form[] =>
  rows.map((r) => ({ id: r.id, updated_at: r.updated_at, deleted_at: r.deleted_at, name: r.name, description: r.description, version_id: r.version_id, version: r.version, fields: r.fields, created_at: r.created_at }));

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
