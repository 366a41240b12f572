import { useMemo, useRef } from 'react';
import type { FileAnswer } from '@/contract/forms';
import type { EntryFile } from '@/contract/entries';
import { useReplica } from '@/data/hooks/use-live';
import type { FileModule } from '@/entries/data/file-keys';
import { storeLocalFile } from '@/entries/data/local-files';
import { prepareFiles } from '@/entries/data/write-support';
import { useEntryFileView } from '@/entries/hooks/use-entry-file';
import type { FormFilePreviewProps, FormFiles } from '@/components/form-renderer/types';

/**
 * A file answer as the form renderer shows it: a picture from the encrypted cache (a server file,
 * fetched once online, or one kept on this device), or a link to open any other file.
 */
function previewFor(module: FileModule) {
  return function ObjectiveFilePreview({ file, alt }: FormFilePreviewProps) {
    const view = useEntryFileView(file.file_id, module);
    if (!view) return <span className="attachment attachment--missing">{alt} (not on this device yet)</span>;
    if (view.type.startsWith('image/')) {
      return <img src={view.url} alt={alt} className="attachment__img" width={120} height={120} />;
    }
    return (
      <a className="attachment" href={view.url} target="_blank" rel="noreferrer">
        Open {alt}
      </a>
    );
  };
}

const logPreview = previewFor('task_log');

/** Read-only file answers of a task log (GET /v1/files/view?module=task_log, cached encrypted). */
export const taskLogFiles: Pick<FormFiles, 'Preview'> = { Preview: logPreview };

/**
 * The files of a form the young person fills in (the review): each added photo is resized and kept
 * encrypted on the device (`local:<id>` in the replica) and its details reported to `onStored`, so
 * the draft and the review can name it; previews read it back from there.
 */
export function useLocalFormFiles(onStored: (file: EntryFile) => void): FormFiles {
  const open = useReplica();
  const report = useRef(onStored);
  report.current = onStored;
  return useMemo<FormFiles>(
    () => ({
      async store(blob: Blob, name: string): Promise<FileAnswer> {
        if (!open || open.db.closed) throw new Error('The replica is not open');
        const [prepared] = await prepareFiles([blob instanceof File ? blob : new File([blob], name, { type: blob.type })]);
        const stored = await storeLocalFile(open.db, prepared!, prepared!.name || name);
        report.current(stored);
        return { file_id: stored.id };
      },
      Preview: logPreview,
    }),
    [open],
  );
}
