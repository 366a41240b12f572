import { withQuery } from '@/contract/query-string';
import type { MultipartPart, OutboxBody, WriteInput } from './types';

/**
 * SPEC §5 request shapes. Entry writes are multipart: null/undefined values are skipped, arrays
 * (shared_with) are repeated as `name[]`, files go as `files[0]`, `files[1]`, …, and an update is a
 * POST with `_method=PUT` (query string, as SPEC §7 writes it, and form field). App settings and
 * push are JSON.
 */
export function fieldParts(fields: Readonly<Record<string, unknown>>): MultipartPart[] {
  const parts: MultipartPart[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item === null || item === undefined) continue;
        parts.push({ name: `${name}[]`, value: scalar(item) });
      }
      continue;
    }
    parts.push({ name, value: scalar(value) });
  }
  return parts;
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  // Structured values (a canvas drawing, a reaction object) travel as JSON text.
  return JSON.stringify(value);
}

/** The body to store (files by index; their bytes are sealed separately) and the final path. */
export function describeBody(input: WriteInput, files: readonly { name: string; type: string }[]): { path: string; body: OutboxBody } {
  const override = input.methodOverride === 'PUT';
  const path = override ? withParamOnce(input.path, '_method', 'PUT') : input.path;
  if (input.json !== undefined) {
    if (input.fields || files.length) throw new Error('An outbox write is either JSON or multipart');
    return { path, body: { kind: 'json', json: JSON.stringify(input.json) } };
  }
  const parts = fieldParts(input.fields ?? {});
  if (override) parts.push({ name: '_method', value: 'PUT' });
  // `files` describes input.files then input.fileFields, in that order (their sealed bytes too).
  const indexed = input.files?.length ?? 0;
  files.forEach((file, index) => {
    const name = index < indexed ? `files[${index}]` : (input.fileFields?.[index - indexed]?.name ?? `files[${index}]`);
    parts.push({ name, file: index, filename: file.name, type: file.type });
  });
  return { path, body: { kind: 'multipart', parts } };
}

/** A path that already carries the parameter keeps its own value. */
function withParamOnce(path: string, name: string, value: string): string {
  if (new RegExp(`[?&]${name}=`).test(path)) return path;
  return withQuery(path, { params: { [name]: value } });
}

/** About how many bytes a body sends: its text (JSON, or the form's text parts) and its files. */
export function bodySize(body: OutboxBody, files: readonly Uint8Array<ArrayBuffer>[]): number {
  const text = body.kind === 'json' ? body.json.length : body.parts.reduce((sum, part) => sum + ('value' in part ? part.value.length : 0), 0);
  return text + files.reduce((sum, file) => sum + file.byteLength, 0);
}

/** Rebuilds the body to send: a JSON string, or FormData whose files come from the decrypted bytes. */
export function buildBody(body: OutboxBody, files: readonly Uint8Array<ArrayBuffer>[]): { body: string | FormData; contentType: string | null } {
  if (body.kind === 'json') return { body: body.json, contentType: 'application/json' };
  const form = new FormData();
  for (const part of body.parts) {
    if ('value' in part) {
      form.append(part.name, part.value);
    } else {
      const bytes = files[part.file];
      if (!bytes) throw new Error(`Outbox entry lacks file ${part.file}`);
      form.append(part.name, new Blob([bytes], { type: part.type }), part.filename);
    }
  }
  // fetch sets multipart/form-data with its boundary.
  return { body: form, contentType: null };
}
