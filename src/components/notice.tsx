import type { ReactNode } from 'react';
import { PageHeading } from './page-heading';

/** A whole-page friendly message (offline, feature off, wrong account type...). */
export function Notice({ title, children, actions, role }: { title: string; children: ReactNode; actions?: ReactNode; role?: 'alert' | 'status' }) {
  return (
    <div className="notice" role={role}>
      <PageHeading>{title}</PageHeading>
      <div className="notice__body">{children}</div>
      {actions ? <div className="actions">{actions}</div> : null}
    </div>
  );
}
