import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';

/**
 * SPEC §4 "a submitted toggle" for the journal: after a new entry is saved, /journal/entries says so
 * calmly above the list, with the way back to writing. The toggle lives in the navigation state; it
 * is read once and cleared, so a reload or coming back later shows the plain list.
 */
export interface JournalSubmittedState {
  submitted: { queuedOffline: boolean };
}

function submittedOf(state: unknown): JournalSubmittedState['submitted'] | null {
  const submitted = (state as Partial<JournalSubmittedState> | null)?.submitted;
  return submitted && typeof submitted.queuedOffline === 'boolean' ? submitted : null;
}

export function JournalSubmitted() {
  const location = useLocation();
  const navigate = useNavigate();
  const [submitted] = useState(() => submittedOf(location.state));

  useEffect(() => {
    if (submittedOf(location.state)) void navigate('.', { replace: true, state: null });
  }, [location.state, navigate]);

  if (!submitted) return null;
  return (
    <div className="callout journal__submitted">
      <p>
        {submitted.queuedOffline
          ? 'Saved on this device. It is at the top of your list, and it will be sent when you are back online.'
          : 'Saved. Your new entry is at the top of your list.'}
      </p>
      <Link to="/journal">Write another entry</Link>
    </div>
  );
}
