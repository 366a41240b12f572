import type { ReactNode } from 'react';

/** A friendly "nothing here yet" block: a short heading, a kind sentence and optional actions. */
export function EmptyState({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <span className="empty-state__art" aria-hidden="true" />
      <h2 className="empty-state__title">{title}</h2>
      <p>{children}</p>
      {actions ? <div className="actions">{actions}</div> : null}
    </section>
  );
}
