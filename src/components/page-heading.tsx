import type { ReactNode } from 'react';

/** The page's one h1. Focus moves here after each navigation (the shell looks for `#main-heading`). */
export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <h1 id="main-heading" tabIndex={-1} className="page-heading">
      {children}
    </h1>
  );
}
