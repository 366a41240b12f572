import { useEffect, useState } from 'react';
import { useAppConfig } from '@/data/app-config-store';
import { useAccount } from '@/data/session-store';
import { useToast } from '@/components/use-toast';
import { canOfferPush, PUSH_SUBSCRIBED, subscribeToPush } from '../actions/subscribe-to-push';

/**
 * Opt-in to a notification when staff reply. Shown only where it can work (push support, a server
 * key, not blocked, not subscribed yet); the browser asks for permission only on the button press.
 */
export function PushOptIn() {
  const account = useAccount();
  const publicKey = useAppConfig().push_public_key;
  const toast = useToast();
  const [offer, setOffer] = useState(false);
  const [busy, setBusy] = useState(false);

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
  if (!offer || !userId) return null;

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

  return (
    <section aria-labelledby="push-opt-in-title" className="section callout">
      <h2 id="push-opt-in-title" className="section-title">
        Get a notification when staff reply
      </h2>
      <p>We only tell you there is a new reply. What staff wrote stays inside Hearth.</p>
      <button type="button" className="button button--primary" onClick={() => void turnOn()} disabled={busy}>
        {busy ? 'Turning on…' : 'Turn on notifications'}
      </button>
    </section>
  );
}
