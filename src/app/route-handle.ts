import type { UIMatch } from 'react-router-dom';

/** Static facts about a route, read by the shell (title) and the guards. */
export interface RouteHandle {
  /** The capitalised route name of the page title; home has none. */
  name?: string;
  /** SPEC §2 `offline` guard: the page works offline. Without it an offline visit shows "You need to be online". */
  offline?: boolean;
  /** SPEC §2 `feature-flag` guard. */
  flag?: 'journal_enabled' | 'voice_enabled' | 'rewards_enabled';
}

/** The deepest route's handle (the page being shown). */
export function leafHandle(matches: readonly UIMatch[]): RouteHandle {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle && (handle.name !== undefined || handle.offline !== undefined || handle.flag !== undefined)) return handle;
  }
  return {};
}
