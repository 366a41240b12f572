import { useId, useState, type ReactNode } from 'react';
import { focusHeading } from '@/lib/focus-heading';

/**
 * What a journal or voice index says on its first visit only (the page decides when: `useFirstIndexVisit`).
 * "Got it" puts it away for this visit; focus goes back to the page heading, never to nowhere.
 */
export function FirstVisitNote({ show, title, children }: { show: boolean; title: string; children: ReactNode }) {
  const [dismissed, setDismissed] = useState(false);
  const titleId = useId();
  if (!show || dismissed) return null;
  return (
    <section className="callout first-visit" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {title}
      </h2>
      {children}
      <button
        type="button"
        className="button button--secondary"
        onClick={() => {
          setDismissed(true);
          focusHeading();
        }}
      >
        Got it
      </button>
    </section>
  );
}
