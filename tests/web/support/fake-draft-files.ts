import type { DraftFile } from '@/data/drafts';
import type { Draft } from '@/data/hooks/use-draft';

/**
 * The files kept with drafts on "the device" for screen tests: src/data/drafts.ts's keepDraftFile,
 * readDraftFile and forgetDraftFile over a map, and the draft's removal taking its files with it,
 * as deleteDraft does (the replica's own behaviour is tested in tests/data/drafts.test.ts).
 * Survives an unmount, as the replica does a reload. No value imports: it stands in for part of
 * src/data/drafts.ts, which the other fakes import.
 */
export const fakeDraftFiles = {
  map: new Map<string, { key: string; bytes: Blob; mime: string }>(),
  /** While set, keeping a file waits for it (a slow phone still encrypting a photo). */
  gate: null as Promise<void> | null,
  /** Files whose keeping finished (stored), removed since or not. */
  stored: 0,
  /** The files kept with the draft under `key`. */
  of: (key: string) => [...fakeDraftFiles.map.values()].filter((entry) => entry.key === key),
  reset() {
    fakeDraftFiles.map.clear();
    fakeDraftFiles.gate = null;
    fakeDraftFiles.stored = 0;
  },
};

const at = (key: string, id: string) => `${key}/${id}`;
let next = 0;

export const draftFileFns = {
  keepDraftFile: async (key: string, file: Blob, name: string): Promise<DraftFile | null> => {
    const id = `00000000-0000-4000-9000-${String(++next).padStart(12, '0')}`;
    const mime = file.type || 'application/octet-stream';
    await fakeDraftFiles.gate;
    fakeDraftFiles.map.set(at(key, id), { key, bytes: file, mime });
    fakeDraftFiles.stored += 1;
    return { id, name, mime, size: file.size };
  },
  readDraftFile: async (key: string, file: DraftFile): Promise<File | null> => {
    const stored = fakeDraftFiles.map.get(at(key, file.id));
    return stored ? new File([stored.bytes], file.name, { type: file.mime || stored.mime }) : null;
  },
  forgetDraftFile: async (key: string, fileId: string): Promise<void> => {
    fakeDraftFiles.map.delete(at(key, fileId));
  },
};

/** Draft hooks (./fake-drafts.ts) whose draft removal takes its files too, as deleteDraft does. */
export function withDraftFiles<H extends { useDraft<T>(key: string | null): Draft<T> }>(hooks: H): H {
  return {
    ...hooks,
    useDraft: <T>(key: string | null): Draft<T> => {
      const draft = hooks.useDraft<T>(key);
      return {
        ...draft,
        clear: async () => {
          await draft.clear();
          for (const [id, entry] of fakeDraftFiles.map) if (entry.key === key) fakeDraftFiles.map.delete(id);
        },
      };
    },
  };
}
