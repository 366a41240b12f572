import { useEffect, useMemo, useState } from 'react';
import { useAppConfig } from '@/data/app-config-store';
import { dismissOffer, useDismissedOffers } from '@/data/install';
import { useAccount } from '@/data/session-store';
import { currentDevice } from '@/lib/device';
import { useToast } from '@/components/use-toast';
import { canOfferPush, PUSH_SUBSCRIBED, subscribeToPush } from '../actions/subscribe-to-push';
import { IosInstallSteps } from './ios-install-steps';

/**
 * Opt-in to a notification when staff reply. Shown only where it can work (push support, a server
 * key, not blocked, not subscribed yet); the browser asks for permission only on the button press.
 * On iPhone and iPad in the browser (no push there: only Home Screen apps get it) it explains that
 * Hearth must be added to the Home Screen first. "No thanks" hides it for good on this device.
 */
export function PushOptIn() {
  const account = useAccount();
  const publicKey = useAppConfig().push_public_key;
  const dismissed = useDismissedOffers();
  const toast = useToast();
  const device = useMemo(() => currentDevice(), []);
  const [offer, setOffer] = useState(false);
  const [busy, setBusy] = useState(false);
  const [showSteps, setShowSteps] = useState(false);
  const needsHomeScreen = device.ios && !device.standalone;

  useEffect(() => {
    let current = true;
    void canOfferPush(publicKey).then((can) => {
      if (current) setOffer(can);
    });
    return () => {
      current = false;
    };
  }, [publicKey]);

  const userId = account?.user.id;
  if (!userId || !publicKey || dismissed.push) return null;
  if (!offer && !needsHomeScreen) return null;

  const turnOn = async () => {
    setBusy(true);
    const result = await subscribeToPush(userId, publicKey);
    setBusy(false);
    if (result.ok) {
      toast.success(PUSH_SUBSCRIBED);
      setOffer(false);
    } else {
      toast.error(result.message);
      if (typeof Notification !== 'undefined' && Notification.permission === 'denied') setOffer(false);
    }
  };

  const noThanks = (
    <button type="button" className="button button--secondary" aria-describedby="push-opt-in-note" onClick={() => dismissOffer('push')}>
      No thanks
    </button>
  );

  return (
    <section aria-labelledby="push-opt-in-title" className="section callout">
      <h2 id="push-opt-in-title" className="section-title">
        Get a notification when staff reply
      </h2>
      <p>We only tell you there is something new. What staff wrote stays inside Hearth.</p>
      {needsHomeScreen ? (
        <>
          <p>On iPhone and iPad, Hearth can send notifications once it is on your Home Screen. Add it, open Hearth from its icon, then turn notifications on here.</p>
          {dismissed['ios-guide'] ? (
            <>
              <button type="button" className="button button--secondary" aria-expanded={showSteps} aria-controls="push-ios-steps" onClick={() => setShowSteps((open) => !open)}>
                {showSteps ? 'Hide how' : 'Show me how'}
              </button>
              {showSteps ? <IosInstallSteps id="push-ios-steps" /> : null}
            </>
          ) : null}
          <div className="actions">{noThanks}</div>
        </>
      ) : (
        <div className="actions">
          <button type="button" className="button button--primary" onClick={() => void turnOn()} disabled={busy}>
            {busy ? 'Turning on…' : 'Turn on notifications'}
          </button>
          {noThanks}
        </div>
      )}
      <p id="push-opt-in-note" className="small-print">
        “No thanks” hides this for good on this device.
      </p>
    </section>
  );
}
