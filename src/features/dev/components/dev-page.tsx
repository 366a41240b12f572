import { useAppConfig } from '@/data/app-config-store';
import { useSyncStatus } from '@/data/hooks/use-sync-status';
import { useOutbox } from '@/data/outbox/use-outbox';
import { useDevMailbox } from '@/data/use-dev-mailbox';
import { useOnlineStatus } from '@/data/use-online-status';
import { PageHeading } from '@/components/page-heading';
import { useServiceWorkerState } from '../hooks/use-service-worker-state';
import { useStorageState, type StorageState } from '../hooks/use-storage-state';

const megabytes = (bytes: number | null): string => (bytes === null ? 'Unknown' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** navigator.storage.persist()'s answer when Hearth asked after sign-in (once per device). */
function askedText(asked: StorageState['asked']): string {
  if (!asked) return 'Not asked yet';
  if (!asked.supported) return 'Not supported by this browser';
  const when = new Date(asked.asked_at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return `${asked.granted ? 'Granted' : 'Not granted'} (${when})`;
}

/** /dev: build facts for whoever is testing, and the development mailbox when the server has one. */
export function DevPage() {
  const config = useAppConfig();
  const online = useOnlineStatus();
  const storage = useStorageState();
  const worker = useServiceWorkerState();
  const outbox = useOutbox();
  const sync = useSyncStatus();
  const { state: mailbox, refresh } = useDevMailbox(config.dev_mailbox);

  return (
    <div className="page">
      <PageHeading>Developer</PageHeading>
      <dl className="facts">
        <dt>Build</dt>
        <dd>{__BUILD_ID__}</dd>
        <dt>Version</dt>
        <dd>{__APP_VERSION__}</dd>
        <dt>Network</dt>
        <dd>{online ? 'Online' : 'Offline'}</dd>
        <dt>Storage used</dt>
        <dd>
          {megabytes(storage.usage)} of {megabytes(storage.quota)}
        </dd>
        <dt>Persistent storage</dt>
        <dd>{storage.persisted === null ? 'Unknown' : storage.persisted ? 'Yes' : 'No'}</dd>
        <dt>Asked after sign-in</dt>
        <dd>{askedText(storage.asked)}</dd>
        <dt>Service worker</dt>
        <dd>{worker}</dd>
        <dt>Outbox</dt>
        <dd>
          {outbox.pending} waiting{outbox.held ? ` (${outbox.held} held until sign-in)` : ''}, {outbox.failed} failed
        </dd>
        <dt>Last synced</dt>
        <dd>{sync.syncing ? 'Syncing now' : sync.lastSyncedAt ? new Date(sync.lastSyncedAt).toLocaleString() : 'Not yet'}</dd>
        {sync.error ? (
          <>
            <dt>Sync problem</dt>
            <dd>{sync.error}</dd>
          </>
        ) : null}
      </dl>

      {config.dev_mailbox ? (
        <section aria-labelledby="mailbox-title" className="section">
          <div className="section__header">
            <h2 id="mailbox-title" className="section-title">
              Development mailbox
            </h2>
            <button type="button" className="button button--secondary" onClick={refresh}>
              Refresh
            </button>
          </div>
          <div aria-live="polite">
            {mailbox.status === 'loading' ? <p>Loading messages…</p> : null}
            {mailbox.status === 'error' ? <p role="alert">Could not read the mailbox: {mailbox.message}</p> : null}
            {mailbox.status === 'ready' && mailbox.mails.length === 0 ? <p>No messages yet.</p> : null}
            {mailbox.status === 'ready' && mailbox.mails.length > 0 ? (
              <ul className="mail-list">
                {[...mailbox.mails].reverse().map((mail) => (
                  <li key={mail.id} className="card">
                    <p>
                      <strong>To:</strong> {mail.to}
                    </p>
                    <p>
                      <strong>Subject:</strong> {mail.subject}
                    </p>
                    <pre className="mail-text">{mail.text}</pre>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </section>
      ) : null}
    </div>
  );
}
