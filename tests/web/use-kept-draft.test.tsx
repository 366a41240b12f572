/**
 * The draft hook of every writing form (src/data/hooks/use-kept-draft.ts), over the fake drafts
 * (./support/fake-drafts.ts): what it stores, when, and what it never removes.
 */
import { act, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flushDrafts } from '@/data/drafts';
import { useKeptDraft } from '@/data/hooks/use-kept-draft';
import { waitUntil } from '../support/wait';
import { fakeDrafts } from './support/fake-drafts';

vi.mock('@/data/hooks/use-draft', async () => (await import('./support/fake-drafts')).draftHooks);

const KEY = 'entry:journal:new';
const unchanged = (words: string) => words === '';

function Form({ words, onRestored }: { words: string; onRestored?: (value: string | null | undefined) => void }) {
  const kept = useKeptDraft(KEY, words, unchanged);
  onRestored?.(kept.restored);
  return null;
}

beforeEach(() => fakeDrafts.reset());

describe('useKeptDraft', () => {
  it('a form closed before it showed the stored draft leaves the draft alone', () => {
    fakeDrafts.set(KEY, 'yesterday’s words');
    const view = render(<Form words="" />);
    view.unmount();
    expect(fakeDrafts.get(KEY)).toBe('yesterday’s words');
  });

  it('stores a change after a pause, and removes the draft when the form is back as it opened', async () => {
    const view = render(<Form words="" />);
    view.rerender(<Form words="a few words" />);
    await waitUntil(() => fakeDrafts.get(KEY) === 'a few words');
    view.rerender(<Form words="" />);
    await waitUntil(() => fakeDrafts.get(KEY) === null);
  });

  it('the sign-out warning\'s flush stores a change at once, before the pause ends', async () => {
    const view = render(<Form words="" />);
    view.rerender(<Form words="just typed" />);
    await act(() => flushDrafts());
    expect(fakeDrafts.get(KEY)).toBe('just typed');
    view.unmount();
  });

  it('tells the form what was stored before it opened, once', () => {
    fakeDrafts.set(KEY, 'kept');
    const seen: (string | null | undefined)[] = [];
    const view = render(<Form words="" onRestored={(value) => seen.push(value)} />);
    fakeDrafts.set(KEY, 'stored since');
    view.rerender(<Form words="kept" onRestored={(value) => seen.push(value)} />);
    expect(new Set(seen.filter((value) => value !== undefined))).toEqual(new Set(['kept']));
    view.unmount();
  });
});
