import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { RouteEffects } from '@/app/shell/route-effects';

function Page({ title }: { title: string }) {
  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        {title}
      </h1>
      <button type="button">Keep offline</button>
    </>
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <RouteEffects />
            <Outlet />
          </>
        ),
        children: [
          { path: 'documents', handle: { name: 'Documents' }, element: <Page title="Documents" /> },
          { path: 'calendar', handle: { name: 'Calendar' }, element: <Page title="Calendar" /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  // StrictMode as the app renders (app-providers.tsx): it runs each effect twice at mount.
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return router;
}

describe('RouteEffects: title and focus', () => {
  it('leaves focus where it is on the first page, even when its effects run again (focus taken after the page showed was stolen: a flaky keyboard test under load)', async () => {
    renderAt('/documents');
    expect(document.title).toBe('Hearth - Documents');
    // render() flushed every effect, StrictMode's second run included.
    expect(document.activeElement).toBe(document.body);
  });

  it('moves focus to the new page heading on each new path, once', async () => {
    const router = renderAt('/documents');
    await act(() => router.navigate('/calendar'));
    expect(document.title).toBe('Hearth - Calendar');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Calendar' }));
    // Focus put elsewhere on the same page stays there.
    const button = screen.getByRole('button', { name: 'Keep offline' });
    act(() => button.focus());
    await act(() => router.navigate('/calendar'));
    expect(document.activeElement).toBe(button);
  });
});
