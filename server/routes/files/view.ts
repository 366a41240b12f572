import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { fileModuleSchema } from '../../../src/contract/entries';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { entryReadable } from '../../domain/access';
import type { EntryKind } from '../../../src/contract/entry-kind';
import { ENTRY_TABLE } from '../../domain/entries/entry-table';
import { paths } from '../../../src/contract/paths';
import { taskFileReadable } from '../../domain/tasks/queries';
import { rewardFileReadable } from '../../domain/rewards/catalogue';

/**
 * GET /api/v1/files/view?file_id=&module=journal|voice|comment|task_comment|task_log|reward: the
 * bytes of an attachment or drawing, to whoever may read the owning entry (for a comment: the
 * comment's entry; for an objective's comment or file answer: whoever may read the objective,
 * domain/tasks; for a reward's picture: access.ts rewardImageReadable); 404 for
 * everything else, including a module that does not match the file. Served with the type detected
 * at upload, inline (PDFs as attachment), never sniffed, never cached, and sandboxed.
 */
const querySchema = z.object({ file_id: z.uuid(), module: fileModuleSchema });

export default async function fileViewRoute(app: FastifyInstance) {
  // Bytes, never compressed per request (plugins/compression.ts).
  app.get(paths.fileView.pattern, { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const { file_id, module } = parse(querySchema, request.query);
    const file = await app.db
      .selectFrom('entry_files')
      .select(['id', 'entry_type', 'entry_id', 'name', 'mime', 'storage_key'])
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', file_id)
      .where('entry_type', '=', module)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!file) throw new HttpError(404, chosen.notFound);

    let entryType: EntryKind;
    let entryId: string;
    if (file.entry_type === 'task_comment' || file.entry_type === 'task_log') {
      if (!(await taskFileReadable(app, auth, file.entry_type, file.entry_id))) throw new HttpError(404, chosen.notFound);
      return sendFile(request, reply, auth.tenantId, file);
    }
    if (file.entry_type === 'reward') {
      if (!(await rewardFileReadable(app, auth, file.entry_id))) throw new HttpError(404, chosen.notFound);
      return sendFile(request, reply, auth.tenantId, file);
    }
    if (file.entry_type === 'comment') {
      const comment = await app.db
        .selectFrom('entry_comments')
        .select(['entry_type', 'entry_id'])
        .where('tenant_id', '=', auth.tenantId)
        .where('id', '=', file.entry_id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!comment) throw new HttpError(404, chosen.notFound);
      entryType = comment.entry_type;
      entryId = comment.entry_id;
    } else {
      entryType = file.entry_type;
      entryId = file.entry_id;
    }
    const table = ENTRY_TABLE[entryType];
    const readable = await app.db
      .selectFrom(`${table} as entry` as 'journal_entries as entry')
      .select('entry.id')
      .where('entry.tenant_id', '=', auth.tenantId)
      .where('entry.id', '=', entryId)
      .where('entry.deleted_at', 'is', null)
      .where(entryReadable(auth))
      .executeTakeFirst();
    if (!readable) throw new HttpError(404, chosen.notFound);
    return sendFile(request, reply, auth.tenantId, file);
  });

  async function sendFile(request: FastifyRequest, reply: FastifyReply, tenantId: string, file: { id: string; name: string; mime: string; storage_key: string }) {
    let bytes: Buffer;
    try {
      bytes = await app.fileStore.read(tenantId, file.storage_key);
    } catch {
      request.log.error({ fileId: file.id }, 'stored file missing');
      throw new HttpError(404, chosen.notFound);
    }
    const disposition = file.mime === 'application/pdf' ? 'attachment' : 'inline';
    const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    return reply
      .header('Content-Type', file.mime)
      .header('Content-Length', String(bytes.length))
      .header('Content-Disposition', `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .send(bytes);
  }
}
