import type { DataKey } from '../crypto/key-vault';
import { recordNextPull, takePrefetchedPage, type NextPull, type PrefetchPlace } from './store';

/** What a replication in the page does with the store of pulled-ahead answers (src/data/replication/pull.ts). */
export interface PrefetchLink {
  /** The kept answer to exactly this request, or null (used once). */
  take(identifier: string, url: string): Promise<string | null>;
  /** The request this replication makes next. */
  record(pull: NextPull): Promise<void>;
}

/** The signed-in person's store, opened with their data key by the replica's lifecycle. Never throws. */
export function prefetchLink(place: PrefetchPlace, key: DataKey): PrefetchLink {
  return {
    take: (identifier, url) => takePrefetchedPage(place, key, identifier, url).catch(() => null),
    record: (pull) => recordNextPull(place, key, pull).catch(() => undefined),
  };
}
