import { Link, useLocation } from 'react-router-dom';
import type { GoneState } from '@/components/use-leave-when-gone';
import { useResidentDetails, useUserPhoto } from '@/data/hooks';
import { usePoints } from '@/data/hooks/use-points';
import { useAccount, useFeatureFlags } from '@/data/session-store';
import { Avatar } from '@/components/avatar';
import { Icon, type IconName } from '@/components/icon';
import { PageHeading } from '@/components/page-heading';
import { FeedbackPanel } from './feedback-panel';
import { InstallOffer } from './install-offer';
import { PushOptIn } from './push-opt-in';
import { ResidentDetailsPanel } from './resident-details-panel';
import { RewardPointsCard } from './reward-points-card';
import { RosterPanel } from './roster-panel';
import './dashboard.css';

interface QuickLink {
  to: string;
  label: string;
  text: string;
  icon: IconName;
  flag?: string;
}

const quickLinks: QuickLink[] = [
  { to: '/journal', label: 'Journal', text: 'Write about your day', icon: 'journal', flag: 'journal_enabled' },
  { to: '/voice', label: 'Voice', text: 'Tell staff what you think', icon: 'voice', flag: 'voice_enabled' },
  { to: '/objectives', label: 'Objectives', text: 'See your goals', icon: 'objectives' },
  { to: '/rewards', label: 'Rewards', text: 'Swap your points', icon: 'rewards', flag: 'rewards_enabled' },
  { to: '/calendar', label: 'Calendar', text: 'What is coming up', icon: 'calendar' },
  { to: '/documents', label: 'Documents', text: 'Things staff shared', icon: 'documents' },
];

/**
 * /dashboard: the landing page after sign-in (SPEC §1): reward points, recent feedback, today's
 * staff roster and the young person's details, all from the replica, so it works offline.
 */
export function DashboardPage() {
  const account = useAccount();
  const flags = useFeatureFlags();
  const details = useResidentDetails();
  const points = usePoints();
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
  const showPoints = Boolean(flags.rewards_enabled) && (points.data !== null || points.loading || details.loading);

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

      {showPoints ? <RewardPointsCard points={points.data?.balance ?? null} pending={points.data?.pending ?? 0} spending={points.data?.spending ?? 0} /> : null}

      <div className="dashboard__grid">
        <FeedbackPanel />
        <div className="dashboard__side">
          <RosterPanel keyWorkerId={details.data?.key_worker?.id ?? null} />
          <ResidentDetailsPanel resident={details.data} loading={details.loading} />
        </div>
      </div>

      <section aria-labelledby="quick-links-title" className="section">
        <h2 id="quick-links-title" className="section-title">
          Where to next?
        </h2>
        <ul className="tiles">
          {quickLinks
            .filter((link) => !link.flag || flags[link.flag])
            .map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={`tile tile--${link.icon}`}>
                  <Icon name={link.icon} size={32} />
                  <span className="tile__label">{link.label}</span>
                  <span className="tile__text">{link.text}</span>
                </Link>
              </li>
            ))}
        </ul>
      </section>

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
    </div>
  );
}
