/**
 * What else happens when the documents keeper (./keeper.ts) keeps a file: set by the composition
 * root (src/app/start-data.ts). On its own, without the keeper, so the entry chunk stays free of it.
 */
export interface KeeperHooks {
  /**
   * A file of this type is now kept whole: the composition root warms what shows it offline (the
   * PDF viewer's code, which is not in the precache).
   */
  readonly fileKept?: (mime: string) => void;
}

let hooks: KeeperHooks = {};

export const keeperHooks = (): KeeperHooks => hooks;

/** Sets the hooks; returns the undo. */
export function configureKeeper(next: KeeperHooks): () => void {
  const previous = hooks;
  hooks = next;
  return () => {
    if (hooks === next) hooks = previous;
  };
}
