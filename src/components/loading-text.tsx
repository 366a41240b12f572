import './loading-text.css';

/** A quiet "Loading…" line for a block whose data has not arrived yet (never shown once data exists). */
export function LoadingText({ children = 'Loading…' }: { children?: string }) {
  return (
    <p className="loading-text" aria-live="polite">
      <span className="loading-text__dot" aria-hidden="true" />
      {children}
    </p>
  );
}
