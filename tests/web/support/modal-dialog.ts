import { onTestFinished, vi } from 'vitest';

/**
 * Modal dialogs as a browser has them, for the test that calls this. jsdom has no `showModal`, so
 * the dialogs fall back to a plain open one and the page behind stays focusable. In a browser,
 * while a modal dialog is open everything outside it is inert, and `focus()` on an inert element
 * does nothing: focus moved out of the dialog before it has left the page is lost. Here too.
 */
export function emulateModalDialogs(): void {
  const modal = new WeakSet<Element>();
  const proto = HTMLDialogElement.prototype as Partial<Pick<HTMLDialogElement, 'showModal' | 'close'>>;
  proto.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
    modal.add(this);
  };
  proto.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    modal.delete(this);
  };
  const focus = HTMLElement.prototype.focus;
  vi.spyOn(HTMLElement.prototype, 'focus').mockImplementation(function focusUnlessInert(this: HTMLElement, options?: FocusOptions) {
    const blocking = [...document.querySelectorAll('dialog[open]')].find((dialog) => modal.has(dialog));
    if (blocking && !blocking.contains(this)) return;
    focus.call(this, options);
  });
  onTestFinished(() => {
    delete proto.showModal;
    delete proto.close;
  });
}
