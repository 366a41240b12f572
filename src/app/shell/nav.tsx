import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { ENTRY_KINDS } from '@/contract/entry-kind';
import { chosenMessages } from '@/contract/messages';
import { useFeedbackCounts } from '@/data/hooks/use-feedback';
import { useAccount, useFeatureFlags } from '@/data/session-store';
import { wipeOutbox } from '@/data/outbox/outbox';
import { countUnsentOnDevice } from '@/data/unsent-on-device';
import { signedInContext, signOut } from '@/data/sign-out';
import { unsubscribeFromPush } from '@/features/dashboard/actions/unsubscribe-from-push';
import { Icon, type IconName } from '@/components/icon';
import { useToast } from '@/components/use-toast';
import { LookPicker } from './look-picker';
import { UnsentDialog, unsentCount } from './unsent-dialog';

interface Item {
  to: string;
  label: string;
  icon: IconName;
  flag?: string;
}

const items: Item[] = [
  { to: '/dashboard', label: 'Dashboard', icon: 'dashboard' },
  { to: '/journal', label: 'Journal', icon: 'journal', flag: 'journal_enabled' },
  { to: '/voice', label: 'Voice', icon: 'voice', flag: 'voice_enabled' },
  { to: '/objectives', label: 'Objectives', icon: 'objectives' },
  { to: '/rewards', label: 'Rewards', icon: 'rewards', flag: 'rewards_enabled' },
  { to: '/calendar', label: 'Calendar', icon: 'calendar' },
  { to: '/documents', label: 'Documents', icon: 'documents' },
];

/** How many items the phone's bottom bar holds before "Menu". */
const BAR_ITEMS = 4;

/**
 * SPEC §2 navigation: Dashboard, Journal, Voice, Objectives, Rewards, Calendar, Documents, Logout,
 * Menu. Phones: a bottom bar with the first items and Menu (a drawer with the rest). Wide screens:
 * a side bar with every item; Menu keeps the extras (feedback, password, two-factor, look).
 */
export function Nav() {
  const flags = useFeatureFlags();
  const account = useAccount();
  const toast = useToast();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  // A navigation closes the drawer, adjusted while rendering: an effect made an update at every
  // mount of the shell (issue 13).
  const [drawerPath, setDrawerPath] = useState(pathname);
  if (drawerPath !== pathname) {
    setDrawerPath(pathname);
    if (open) setOpen(false);
  }
  /** The logout warning is open; `notQueued`: what it counts that no queued write accounts for; `drafts`: forms started and not sent. */
  const [confirming, setConfirming] = useState<{ notQueued: number; drafts: number } | null>(null);
  const visible = items.filter((item) => !item.flag || flags[item.flag]);
  // The replies waiting (SPEC §4), as the dashboard's badges and the feedback page count them.
  const counts = useFeedbackCounts().data;
  const waiting = ENTRY_KINDS.filter((type) => flags[`${type}_enabled`]).reduce((sum, type) => sum + counts[type], 0);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);

  /** SPEC §4: push subscription removed (online, before the session ends), logout, local data wiped. */
  const finishLogout = async (discard: boolean) => {
    // Whose data goes, before anything here talks to the server (see signOut).
    const whose = signedInContext();
    setConfirming(null);
    // The person chose to delete what is unsent: drop it now so nothing is sent half-way through.
    if (discard) await wipeOutbox().catch(() => undefined);
    await unsubscribeFromPush();
    await signOut(whose);
    toast.success(chosenMessages.loggedOut);
    navigate('/', { replace: true });
  };

  /** Something not yet sent would be deleted by the wipe: ask first. */
  const logOut = async () => {
    setOpen(false);
    const counts = await countUnsentOnDevice();
    if (unsentCount(counts) > 0 || counts.drafts > 0) setConfirming({ notQueued: counts.notQueued, drafts: counts.drafts });
    else await finishLogout(false);
  };

  const link = (item: Item, className: string) => (
    <NavLink to={item.to} className={className}>
      <Icon name={item.icon} />
      <span>{item.label}</span>
    </NavLink>
  );

  return (
    <>
      <nav className="main-nav" aria-label="Main">
        <ul className="main-nav__list">
          {visible.map((item, index) => (
            <li key={item.to} className={index >= BAR_ITEMS ? 'main-nav__item main-nav__item--wide-only' : 'main-nav__item'}>
              {link(item, 'main-nav__link')}
            </li>
          ))}
          <li className="main-nav__item">
            <button
              type="button"
              className="main-nav__link"
              aria-haspopup="dialog"
              aria-expanded={open}
              onClick={() => setOpen(true)}
            >
              <Icon name="menu" />
              <span>Menu</span>
            </button>
          </li>
          <li className="main-nav__item main-nav__item--wide-only">
            <button type="button" className="main-nav__link" onClick={logOut}>
              <Icon name="logout" />
              <span>Logout</span>
            </button>
          </li>
        </ul>
      </nav>

      <dialog
        ref={dialog}
        className="drawer"
        aria-labelledby="drawer-title"
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === event.currentTarget) setOpen(false);
        }}
      >
        <div className="drawer__panel">
          <div className="drawer__header">
            <h2 id="drawer-title" className="section-title">
              Menu
            </h2>
            <button type="button" className="icon-button" aria-label="Close menu" onClick={() => setOpen(false)}>
              <Icon name="close" />
            </button>
          </div>
          <nav aria-label="More">
            <ul className="drawer__list">
              {visible.slice(BAR_ITEMS).map((item) => (
                <li key={item.to} className="drawer__item--phone-only">
                  {link(item, 'drawer__link')}
                </li>
              ))}
              <li>
                <NavLink to="/feedback" className="drawer__link">
                  <span>Feedback</span>
                  {waiting > 0 ? (
                    <span className="nav-count">
                      {waiting}
                      <span className="visually-hidden"> new {waiting === 1 ? 'reply' : 'replies'}</span>
                    </span>
                  ) : null}
                </NavLink>
              </li>
              <li>
                <NavLink to="/change-password" className="drawer__link">
                  <span>Change password</span>
                </NavLink>
              </li>
              <li>
                <Link to="/auth/mfa/configure" className="drawer__link">
                  <span>{account?.mfa_configured ? 'Two-factor sign-in' : 'Set up two-factor sign-in'}</span>
                </Link>
              </li>
            </ul>
          </nav>
          <LookPicker />
          <button type="button" className="button button--secondary button--block" onClick={logOut}>
            <Icon name="logout" />
            Logout
          </button>
        </div>
      </dialog>
      {confirming ? (
        <UnsentDialog notQueued={confirming.notQueued} drafts={confirming.drafts} onSignOut={(discard) => void finishLogout(discard)} onCancel={() => setConfirming(null)} />
      ) : null}
    </>
  );
}
