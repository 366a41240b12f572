/** An extra replication held by someone (./controller.ts `acquire`), and how its first pull ended. */

/** How an extra replication's first pull ended: pulled, or the status of its failure (0 offline, or stopped first). */
export type FirstPull = { readonly ok: true } | { readonly ok: false; readonly status: number };

/** An extra replication held (a comment thread): call it to release. */
export interface Hold {
  (): void;
  /**
   * Settles at its first pull's end: at once if it had pulled before, else when everything the
   * server had for it then is written, or at its first failure.
   */
  readonly firstPull: Promise<FirstPull>;
}
