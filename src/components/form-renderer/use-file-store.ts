import { createContext, useCallback, useContext, useState } from 'react';
import { formMessages, type FileAnswer } from '@/contract/forms';
import { isFileAnswer } from './answers';
import type { FormFiles } from './types';

/**
 * Files being kept while the person goes on (a photo takes a moment to encrypt). The form waits
 * for them before it checks and submits, so an answer is never left out because the person
 * pressed the button a second too early.
 */
export const FilesInFlight = createContext<(task: Promise<unknown>) => void>(() => undefined);

/**
 * Keeps a file through the caller's `files.store` and hands its answer to `hold`. Never rejects: a
 * failure is a message beside the question ("This file could not be kept"), and the person can
 * try again.
 */
export function useFileStore(files: Pick<FormFiles, 'store'>) {
  const track = useContext(FilesInFlight);
  const [busy, setBusy] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  const keep = useCallback(
    (make: () => Blob | Promise<Blob>, name: string, hold: (answer: FileAnswer) => void): Promise<boolean> => {
      setBusy((n) => n + 1);
      setProblem(null);
      const task = (async () => {
        try {
          const answer = await files.store(await make(), name);
          if (!isFileAnswer(answer)) throw new Error('files.store gave no file_id');
          hold({ file_id: answer.file_id });
          return true;
        } catch {
          setProblem(formMessages.fileNotSaved);
          return false;
        } finally {
          setBusy((n) => n - 1);
        }
      })();
      track(task);
      return task;
    },
    [files, track],
  );

  return { keep, busy: busy > 0, problem, setProblem };
}
