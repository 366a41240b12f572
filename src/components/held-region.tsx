import type { ReactNode } from 'react';
import { useHeldHeight } from './use-held-layout';
import './held-region.css';

/**
 * The part of a screen that the replica fills (a list, its "Loading…" and its empty state): while
 * `loading`, it keeps the height it had the last time it showed here (./use-held-layout.ts), so the
 * links and the footer below it do not move when the content arrives (issue 13). See
 * ./held-region.css for its margins.
 */
export function HeldRegion({ name, loading, children }: { name: string; loading: boolean; children: ReactNode }) {
  const held = useHeldHeight(name, loading);
  return (
    <div ref={held.ref} style={held.style} className="held-region" aria-busy={loading}>
      {children}
    </div>
  );
}
