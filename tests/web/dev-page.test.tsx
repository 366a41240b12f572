import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

vi.mock('@/data/outbox/use-outbox', () => ({ useOutbox: () => ({ pending: 3, held: 1, failed: 2 }) }));

describe('/dev', () => {
  it('shows the build, and what the outbox still has to send', async () => {
    fakeFetch();
    renderApp('/dev');
    await screen.findByRole('heading', { level: 1, name: 'Developer' });
    const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(within(term('Build')).getByText('test-build')).toBeTruthy();
    expect(term('Outbox').textContent).toBe('3 waiting (1 held until sign-in), 2 failed');
  });
});
