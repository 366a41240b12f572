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

function Form({ words, restore = () => undefined }: { words: string; restore?: (draft: string) => void }) {
  const kept = useKeptDraft(KEY, words, unchanged, restore);
  return kept.restored ? <p>restored</p> : null;
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

  it('hands the form what was stored before it opened, once, and says it is showing it', () => {
    fakeDrafts.set(KEY, 'kept');
    const restore = vi.fn();
    const view = render(<Form words="" restore={restore} />);
    expect(restore.mock.calls).toEqual([['kept']]);
    expect(view.queryByText('restored')).toBeTruthy();
    fakeDrafts.set(KEY, 'stored since');
    view.rerender(<Form words="kept" restore={restore} />);
    expect(restore).toHaveBeenCalledOnce();
    view.unmount();
  });

  it('words typed before the stored draft was known are never replaced by it', () => {
    fakeDrafts.set(KEY, 'old words');
    fakeDrafts.opening = true;
    const restore = vi.fn();
    const view = render(<Form words="" restore={restore} />);
    view.rerender(<Form words="new words" restore={restore} />);
    fakeDrafts.opening = false;
    view.rerender(<Form words="new words" restore={restore} />);
    expect(restore).not.toHaveBeenCalled();
    expect(view.queryByText('restored')).toBeNull();
    view.unmount();
  });
});
