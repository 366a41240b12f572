import type { DataKey } from '../crypto/key-vault';
import { dropPrefetchedPage, readPrefetchedPages, recordNextPull, type NextPull, type PrefetchPlace } from './store';

/** What a replication in the page does with the store of pulled-ahead answers (src/data/replication/pull.ts). */
export interface PrefetchLink {
  /** The kept answer to exactly this request, or null (each kept answer is offered once). */
  take(identifier: string, url: string): Promise<string | null>;
  /** The request this replication makes next. */
  record(pull: NextPull): Promise<void>;
  /** Reads the kept answers again (a start, the app back in view: the worker may have kept new ones). */
  refresh(): void;
}

/**
 * The signed-in person's store, opened with their data key by the replica's lifecycle. The kept
 * answers are read in one go when replication starts and when the app comes back into view
 * (`refresh`, by the controller), not before every request, so a pull waits for nothing it does not
 * need; each is removed when its replication asks, whether or not it was the answer. Never throws.
 */
export function prefetchLink(place: PrefetchPlace, key: DataKey): PrefetchLink {
  const load = () => readPrefetchedPages(place, key).catch(() => new Map<string, { url: string; body: string }>());
  let kept: Promise<Map<string, { url: string; body: string }>> | null = null;
  return {
    async take(identifier, url) {
      kept ??= load();
      const pages = await kept;
      const page = pages.get(identifier);
      if (!page) return null;
      pages.delete(identifier);
      void dropPrefetchedPage(place, identifier).catch(() => undefined);
      return page.url === url ? page.body : null;
    },
    record: (pull) => recordNextPull(place, key, pull).catch(() => undefined),
    refresh() {
      // Read now, so the requests about to start find the answers already in memory.
      kept = load();
    },
  };
}
