import { Link, useLocation } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { PageHeading } from '@/components/page-heading';
import { messages } from '@/contract/messages';
import { isVoiceSuccessState, nextStepsFor } from '../voice-next-steps';

/** After sending with Voice: what happens next, in plain words. */
export function VoiceSuccessPage() {
  const { state } = useLocation();
  const links = (
    <>
      <Link to="/voice/entries" className="button button--primary">
        My messages
      </Link>
      <Link to="/dashboard" className="button button--secondary">
        Back to dashboard
      </Link>
    </>
  );
  if (!isVoiceSuccessState(state)) {
    return (
      <div className="page page--narrow">
        <PageHeading>Voice</PageHeading>
        <EmptyState title="Nothing to show here." actions={links}>
          {messages.voiceMissingData}
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="page page--narrow">
      <PageHeading>Thank you for speaking up</PageHeading>
      <section className="card" aria-labelledby="voice-next-title">
        <h2 id="voice-next-title" className="section-title">
          {state.queuedOffline ? `Saved: ${state.categoryName}` : `Sent: ${state.categoryName}`}
        </h2>
        {state.queuedOffline ? <p>You are offline. It is saved on this device and will send by itself when you are back online.</p> : null}
        <p>{nextStepsFor(state.categoryName, state.sharedWithStaff ?? true)}</p>
        <div className="actions">{links}</div>
      </section>
    </div>
  );
}
