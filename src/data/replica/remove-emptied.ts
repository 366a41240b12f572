/**
 * Removing a document without leaving what it held. RxDB never forgets a deleted document: it keeps
 * the last content it had (Hearth adds no cleanup plugin), encrypted at rest but still on the
 * device. So the words, files and photos a young person wrote or took back are emptied in the write
 * that removes them: every encrypted field set to the empty value of its schema type (null where
 * the schema allows it, else '', 0, false, [] or {}). The clear fields (ids, dates, sort keys, kind,
 * sync state) stay, so the deleted row still satisfies its schema and a checkpoint or `keepNewest`
 * reads what it did.
 *
 * `removeEmptied` writes on the revision read, as RxDB's `remove()` does: a document changed since
 * is a conflict, and it rejects as `remove()` would. `incrementalRemoveEmptied` is
 * `incrementalRemove()`'s counterpart: a conflict is decided again on the document as it is then.
 * The file sweep blanks the deleted rows a pull leaves by the same rule (../replication/blank-deleted.ts).
 */
import type { RxDocument, RxJsonSchema } from 'rxdb';

type Plain = Record<string, unknown>;
type Property = { type?: string | readonly string[] };
/** What is read of a collection's schema (RxDB's, with Hearth's `encrypted` list). */
type Schema = Pick<RxJsonSchema<Plain>, 'encrypted' | 'required'> & { readonly properties: unknown };

function emptyOf(property: Property | undefined): unknown {
  const types = property?.type === undefined ? [] : Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes('null')) return null;
  if (types.includes('string')) return '';
  if (types.includes('integer') || types.includes('number')) return 0;
  if (types.includes('boolean')) return false;
  if (types.includes('array')) return [];
  return {};
}

const isEmpty = (value: unknown, empty: unknown): boolean =>
  value === empty ||
  (Array.isArray(empty) && Array.isArray(value) && value.length === 0) ||
  (typeof empty === 'object' && empty !== null && !Array.isArray(empty) && typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);

/** The encrypted fields a row has (or must have), each set to its empty value. */
export function emptiedFields(schema: Schema, doc: Plain): Plain {
  const properties = schema.properties as Record<string, Property>;
  const required = new Set((schema.required ?? []) as readonly string[]);
  const fields: Plain = {};
  for (const field of schema.encrypted ?? []) {
    if (field in doc || required.has(field)) fields[field] = emptyOf(properties[field]);
  }
  return fields;
}

/** Whether any encrypted field of the row still holds something. */
export function holdsContent(schema: Schema, doc: Plain): boolean {
  return Object.entries(emptiedFields(schema, doc)).some(([field, empty]) => !isEmpty(doc[field], empty));
}

type Modifier<T> = Parameters<RxDocument<T>['modify']>[0];

function emptiedAndDeleted<T>(doc: RxDocument<T>): Modifier<T> {
  const schema = doc.collection.schema.jsonSchema as unknown as Schema;
  return ((data: Plain) => ({ ...data, ...emptiedFields(schema, data), _deleted: true })) as unknown as Modifier<T>;
}

/** `doc.remove()`, emptied in the same write (on the revision read: a change since makes it reject). */
export async function removeEmptied<T>(doc: RxDocument<T>): Promise<void> {
  await doc.modify(emptiedAndDeleted(doc));
}

/** `doc.incrementalRemove()`, emptied in the same write (decided again on the latest revision after a conflict). */
export async function incrementalRemoveEmptied<T>(doc: RxDocument<T>): Promise<void> {
  await doc.incrementalModify(emptiedAndDeleted(doc));
}
