/**
 * The prerendered login screen (scripts/prerender-login.ts renders it with the same components) is
 * replaced at React's first commit; what the person did on it before the app arrived carries over
 * (src/app/shell/takeover.ts): typed values, the focus and caret, and a held-back send.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/app-providers';
import { renderLoginShell } from '@/app/render-login-shell';
import { routes } from '@/app/routes';
import { SENT_MARK, watchPrerendered } from '@/app/shell/takeover';
import { fakeFetch, json } from './support/fake-fetch';

let root: Root | null = null;
let container: HTMLElement | null = null;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = null;
  container = null;
  document.documentElement.removeAttribute(SENT_MARK);
});

function AfterFirstCommit({ run }: { run: () => void }) {
  useLayoutEffect(run, [run]);
  return null;
}

/** The page as index.html has it: #root holding the prerendered screen. */
async function prerendered(): Promise<HTMLElement> {
  container = document.createElement('div');
  container.id = 'root';
  container.innerHTML = `<div class="login-shell" data-prerendered="login">${await renderLoginShell()}</div>`;
  document.body.append(container);
  return container;
}

/** What src/main.tsx does: the router ready first, then one render; the carry-over after its commit. */
async function takeOver(target: HTMLElement) {
  const takeover = watchPrerendered(target);
  expect(takeover).not.toBeNull();
  const router = createMemoryRouter(routes, { initialEntries: ['/'] });
  await waitFor(() => expect(router.state.initialized).toBe(true));
  root = createRoot(target);
  await act(async () => {
    root!.render(
      <>
        <AppProviders router={router} />
        <AfterFirstCommit run={() => takeover!.carryOver()} />
      </>,
    );
  });
  return router;
}

const staticInput = (target: HTMLElement, name: string) => target.querySelector<HTMLInputElement>(`[data-prerendered] input[name="${name}"]`)!;

describe('taking over the prerendered login screen', () => {
  it('is the same screen: the same fields and texts', async () => {
    const target = await prerendered();
    expect(staticInput(target, 'username')).toBeTruthy();
    expect(staticInput(target, 'password').type).toBe('password');
    expect(target.querySelector('h1')?.textContent).toBe('Welcome to Hearth');
    expect(target.querySelector('button[type="submit"]')?.textContent).toBe('Sign in');
  });

  it('keeps what was typed, the focus and the caret', async () => {
    fakeFetch();
    const target = await prerendered();
    const username = staticInput(target, 'username');
    username.value = 'jamie';
    staticInput(target, 'password').value = 'a long passphrase';
    username.focus();
    username.setSelectionRange(2, 3);

    await takeOver(target);
    expect(target.querySelector('[data-prerendered]')).toBeNull();
    const now = screen.getByLabelText('Username') as HTMLInputElement;
    expect(now).not.toBe(username);
    expect(now.value).toBe('jamie');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('a long passphrase');
    expect(document.activeElement).toBe(now);
    await waitFor(() => expect([now.selectionStart, now.selectionEnd]).toEqual([2, 3]));
  });

  it('typing that goes on into the new field keeps its place: the caret is not put back behind it', async () => {
    fakeFetch();
    const target = await prerendered();
    const username = staticInput(target, 'username');
    username.value = 'j';
    username.focus();
    username.setSelectionRange(1, 1);

    await takeOver(target);
    const now = screen.getByLabelText('Username') as HTMLInputElement;
    expect(document.activeElement).toBe(now);
    /** A key as the browser types it: at the caret, which moves past it. */
    const type = (keys: string) => {
      for (const key of keys) {
        const at = now.selectionStart ?? now.value.length;
        now.setRangeText(key, at, at, 'end');
        now.dispatchEvent(new Event('input', { bubbles: true }));
      }
    };
    // The next keys land before the carry-over's second placing (a task later), as a fast typist's do.
    type('amie');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10)); // that placing has run
    });
    type('!');
    await waitFor(() => expect(now.value).toBe('jamie!'));
  });

  it('sends a send that the first-paint script held back, with what was typed', async () => {
    const server = fakeFetch((req) => (req.path === '/auth/login' ? json(422, { success: false, message: 'Not right' }) : undefined));
    const target = await prerendered();
    staticInput(target, 'username').value = 'jamie';
    staticInput(target, 'password').value = 'a long passphrase';
    document.documentElement.setAttribute(SENT_MARK, '');

    await takeOver(target);
    await waitFor(() => expect(server.calls.find((c) => c.path === '/auth/login')?.body).toMatchObject({ username: 'jamie', password: 'a long passphrase' }));
    expect(document.documentElement.hasAttribute(SENT_MARK)).toBe(false);
  });

  it('nothing typed, nothing sent: React simply replaces it', async () => {
    const server = fakeFetch();
    const target = await prerendered();
    await takeOver(target);
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('');
    expect(server.calls.some((c) => c.path === '/auth/login')).toBe(false);
  });
});
