import type { Live } from '@/data/hooks';
import type { RosterDoc } from '@/data/replica/types';
import { LoadingText } from '@/components/loading-text';
import { useHeldHeight } from '@/components/use-held-layout';
import { RosterItem } from './roster-item';

/** "Who's working today": today's rota from the replica (SPEC §9: yyyy-MM-dd, today). */
export function RosterPanel({ roster, keyWorkerId }: { roster: Live<RosterDoc[]>; keyWorkerId: string | null }) {
  const loading = roster.loading && roster.data.length === 0;
  const held = useHeldHeight('dashboard.roster', loading);
  return (
    <section ref={held.ref} style={held.style} aria-labelledby="roster-title" className="dash-card" aria-busy={loading}>
      <h2 id="roster-title" className="section-title">
        Who's working today
      </h2>
      {loading ? (
        <LoadingText />
      ) : roster.data.length === 0 ? (
        <p className="dash-card__empty">No staff on the rota for today yet.</p>
      ) : (
        <ul className="roster" aria-labelledby="roster-title">
          {roster.data.map((shift) => (
            <RosterItem key={shift.id} shift={shift} isKeyWorker={shift.user.id === keyWorkerId} />
          ))}
        </ul>
      )}
    </section>
  );
}
