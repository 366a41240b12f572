import { useMemo } from 'react';
import { dismissOffer, promptInstall, useDismissedOffers, useInstallState } from '@/data/install';
import { currentDevice } from '@/lib/device';
import { useToast } from '@/components/use-toast';
import { IosInstallSteps } from './ios-install-steps';

export const INSTALLED_MESSAGE = 'Hearth is installed. You can open it from your apps.';

/**
 * Offering to install Hearth (issue 10), calmly, on the dashboard: where Chromium says it can be
 * installed (`beforeinstallprompt`, kept by src/data/install.ts), an "Install Hearth" button that
 * shows the browser's own dialog; on iPhone and iPad in the browser, a short illustrated "Add to Home
 * Screen" guide. Never once installed or opened from the Home Screen; each can be dismissed for good.
 */
export function InstallOffer() {
  const { prompt, installed } = useInstallState();
  const dismissed = useDismissedOffers();
  const toast = useToast();
  const device = useMemo(() => currentDevice(), []);
  if (device.standalone || installed) return null;

  if (device.ios) {
    if (dismissed['ios-guide']) return null;
    return (
      <section aria-labelledby="ios-install-title" className="section callout install-offer">
        <h2 id="ios-install-title" className="section-title">
          Add Hearth to your Home Screen
        </h2>
        <p>Then Hearth opens like an app, can send you notifications, and keeps what you saved on this device safe.</p>
        <IosInstallSteps />
        <div className="actions">
          <button type="button" className="button button--secondary" aria-describedby="ios-install-note" onClick={() => dismissOffer('ios-guide')}>
            Hide this guide
          </button>
        </div>
        <p id="ios-install-note" className="small-print">
          It will not show again on this device.
        </p>
      </section>
    );
  }

  if (!prompt || dismissed.install) return null;
  const install = async () => {
    if ((await promptInstall()) === 'accepted') toast.success(INSTALLED_MESSAGE);
  };
  return (
    <section aria-labelledby="install-title" className="section callout install-offer">
      <h2 id="install-title" className="section-title">
        Install Hearth
      </h2>
      <p>Put Hearth on this device like an app: it opens in its own window, works without the internet and keeps your notifications working.</p>
      <div className="actions">
        <button type="button" className="button button--primary" onClick={() => void install()}>
          Install Hearth
        </button>
        <button type="button" className="button button--secondary" aria-describedby="install-note" onClick={() => dismissOffer('install')}>
          No thanks
        </button>
      </div>
      <p id="install-note" className="small-print">
        “No thanks” hides this for good on this device.
      </p>
    </section>
  );
}
