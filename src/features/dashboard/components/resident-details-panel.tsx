import type { ResidentDoc } from '@/data/replica';
import { LoadingText } from '@/components/loading-text';
import { useHeldHeight } from '@/components/use-held-layout';
import { PersonAvatar } from '@/components/person-avatar';

/** The young person's details: their home and key worker. */
export function ResidentDetailsPanel({ resident, loading }: { resident: ResidentDoc | null; loading: boolean }) {
  const held = useHeldHeight('dashboard.details', loading && !resident);
  return (
    <section ref={held.ref} style={held.style} aria-labelledby="details-title" className="dash-card" aria-busy={loading && !resident}>
      <h2 id="details-title" className="section-title">
        About you
      </h2>
      {!resident ? (
        loading ? (
          <LoadingText />
        ) : (
          <p className="dash-card__empty">Your details will appear here once they have been shared with you.</p>
        )
      ) : (
        <dl className="details">
          <div className="details__row">
            <dt>Home</dt>
            <dd>{resident.home.name}</dd>
          </div>
          <div className="details__row">
            <dt>Key worker</dt>
            <dd>
              {resident.key_worker ? (
                <span className="details__person">
                  <PersonAvatar person={resident.key_worker} size={32} />
                  {resident.key_worker.first_name} {resident.key_worker.last_name}
                </span>
              ) : (
                'Not chosen yet'
              )}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
