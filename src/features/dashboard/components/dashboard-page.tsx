import { Link, useLocation } from 'react-router-dom';
import type { GoneState } from '@/components/use-leave-when-gone';
import { useFeedback, useResidentDetails, useTodaysRoster, useUserPhoto } from '@/data/hooks';
import { usePoints } from '@/data/hooks/use-points';
import { useAccount, useFeatureFlags } from '@/data/session-store';
import { Avatar } from '@/components/avatar';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { useFirstShownTogether } from '@/components/use-held-layout';
import { FeedbackPanel } from './feedback-panel';
import { InstallOffer } from './install-offer';
import { PushOptIn } from './push-opt-in';
import { QuickLinks } from './quick-links';
import { ResidentDetailsPanel } from './resident-details-panel';
import { RewardPointsCard } from './reward-points-card';
import { RosterPanel } from './roster-panel';
import './dashboard.css';

/** The regions the replica fills (their useHeldHeight names); the points card only with rewards on. */
const REGIONS = ['dashboard.replies', 'dashboard.roster', 'dashboard.details'] as const;
const REGIONS_WITH_POINTS = ['dashboard.points', ...REGIONS] as const;

/**
 * /dashboard: the landing page after sign-in (SPEC §1): reward points, recent feedback, today's
 * staff roster and the young person's details, all from the replica, so it works offline.
 */
export function DashboardPage() {
  const account = useAccount();
  const flags = useFeatureFlags();
  const details = useResidentDetails();
  const points = usePoints();
  const feedback = useFeedback();
  const roster = useTodaysRoster();
  // Right after signing in no shape is on record to hold: the regions show together, once pulled.
  const rewards = Boolean(flags.rewards_enabled);
  const waiting = useFirstShownTogether(rewards ? REGIONS_WITH_POINTS : REGIONS, details.loading || (rewards && points.loading) || feedback.loading || roster.loading);
  const arrivedFrom = useLocation().state as Partial<GoneState> | null;
  const user = account?.user;
  const photo = useUserPhoto(user?.has_photo && user.id ? user.id : null);
  if (!account || !user) return null;
  // Offline, the account may still be the stub without names: the replica's copy fills them in.
  const resident = details.data ?? user.resident;
  const first = resident?.first_name || user.first_name;
  const last = resident?.last_name || user.last_name;
  const name = resident?.preferred_name || first;
  // The ledger in the replica (before its first pull: the resident's reward_points), and the
  // points of this device's reviews still on their way.
  const showPoints = rewards && (points.data !== null || points.loading || details.loading);

  return (
    <div className="page dashboard">
      <div className="greeting">
        <Avatar src={photo} firstName={first} lastName={last} />
        <PageHeading>{name ? `Hi ${name}` : 'Hi there'}</PageHeading>
      </div>

      {arrivedFrom?.gone ? (
        <p className="callout dashboard__gone" role="status">
          What that notification was about is no longer in Hearth, so here is your dashboard.
        </p>
      ) : null}

      {waiting ? (
        <div className="dashboard__waiting" aria-busy="true">
          <LoadingText />
        </div>
      ) : (
        <>
          {showPoints ? <RewardPointsCard points={points.data?.balance ?? null} pending={points.data?.pending ?? 0} spending={points.data?.spending ?? 0} /> : null}

          <div className="dashboard__grid">
            <FeedbackPanel feedback={feedback} />
            <div className="dashboard__side">
              <RosterPanel roster={roster} keyWorkerId={details.data?.key_worker?.id ?? null} />
              <ResidentDetailsPanel resident={details.data} loading={details.loading} />
            </div>
          </div>

          <QuickLinks />

          {!account.mfa_configured ? (
            <section aria-labelledby="mfa-title" className="section callout">
              <h2 id="mfa-title" className="section-title">
                Two-factor sign-in
              </h2>
              <p>Make your account extra safe: after your password, you type a code that only you can get.</p>
              <Link to="/auth/mfa/configure" className="button button--primary">
                Set up two-factor sign-in
              </Link>
            </section>
          ) : null}

          <PushOptIn />
          <InstallOffer />
        </>
      )}
    </div>
  );
}
