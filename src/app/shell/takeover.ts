/**
 * The login screen prerendered into index.html (scripts/prerender-login.ts) is on screen, and may
 * be typed into, before the app's JavaScript runs. React replaces it at its first commit with its own
 * copy of the same screen (same layout: no shift). This carries over what the person did meanwhile:
 * the fields' values, the focus and caret, and a send (the inline first-paint script in index.html
 * held it back and marked it), which the app's form then sends.
 */
type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export const SENT_MARK = 'data-login-sent';

const isField = (element: Element | null): element is Field =>
  element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;

const changed = (field: Field): boolean =>
  field instanceof HTMLSelectElement ? [...field.options].some((option) => option.selected !== option.defaultSelected) : field.value !== field.defaultValue;

/** Sets a field's value as typing would, so React's onChange sees it. */
function enter(field: Field, value: string): void {
  const prototype = Object.getPrototypeOf(field) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

export interface Takeover {
  /** After React's first commit: what was typed, the focus and a held send, onto React's screen. */
  carryOver(): void;
}

/** Watches the prerendered screen in `container`, if there is one. */
export function watchPrerendered(container: HTMLElement): Takeover | null {
  const shell = container.querySelector<HTMLElement>('[data-prerendered]');
  if (!shell) return null;
  const fields = [...shell.querySelectorAll('input[name], select[name], textarea[name]')].filter(isField);
  let focused: Field | null = isField(document.activeElement) && shell.contains(document.activeElement) ? document.activeElement : null;
  const onFocus = (event: FocusEvent) => {
    focused = isField(event.target as Element) ? (event.target as Field) : null;
  };
  shell.addEventListener('focusin', onFocus);

  return {
    carryOver() {
      shell.removeEventListener('focusin', onFocus);
      if (shell.isConnected) return; // React has not replaced it (nothing to carry)
      const now = [...container.querySelectorAll('input[name], select[name], textarea[name]')].filter(isField);
      const counterpart = (field: Field): Field | null => now.find((other) => other.name === field.name && other.tagName === field.tagName) ?? null;
      for (const field of fields) {
        const other = counterpart(field);
        if (other && changed(field)) enter(other, field.value);
      }
      const target = focused && counterpart(focused);
      if (target && focused) {
        target.focus({ preventScroll: true });
        const start = focused instanceof HTMLInputElement ? focused.selectionStart : null;
        const end = focused instanceof HTMLInputElement ? (focused.selectionEnd ?? start) : null;
        const carried = focused.value;
        const place = () => {
          if (!(target instanceof HTMLInputElement) || start === null || document.activeElement !== target) return;
          // Typed into React's field since: the browser has put the caret after those keys already;
          // the old position would send the next ones into the middle of the word ("jamie" became "jmiea").
          if (target.value !== carried) return;
          try {
            target.setSelectionRange(start, end ?? start);
          } catch {
            // a type without a caret
          }
        };
        place();
        // Again once React has rendered the values entered above (its controlled inputs set them anew).
        setTimeout(place, 0);
      }
      const root = document.documentElement;
      if (root.hasAttribute(SENT_MARK)) {
        root.removeAttribute(SENT_MARK);
        const form = target?.form ?? container.querySelector('form');
        // A task later: the values entered above reach the form's state in React's render after this commit.
        if (form) setTimeout(() => form.isConnected && form.requestSubmit(), 0);
      }
    },
  };
}
