import { waitFor } from '@testing-library/react';
import { isDangerousUrl, XSS_MARKER, type XssVector } from '../../support/xss-vectors';

/**
 * What the XSS sweep (tests/web/xss-*.test.ts[x]) looks for in a rendered screen: the marker every
 * vector calls if it runs (tests/support/xss-vectors.ts), and anything a vector would leave in the
 * DOM had it been parsed as markup. React renders what people write as text, never as elements or
 * inline handlers, so on these screens any of the following came from a payload.
 */

/** Elements no Hearth screen renders itself, and every one of them a way to run or load script. */
const BANNED = new Set([
  'script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link', 'style', 'noscript',
  'template', 'math', 'mglyph', 'animate', 'set', 'animatemotion', 'animatetransform', 'foreignobject', 'marquee', 'xmp',
  'portal', 'isindex',
]);

/** Attributes that hold a URL a browser fetches, navigates to or runs. */
const URL_ATTRIBUTES = new Set(['href', 'xlink:href', 'src', 'action', 'formaction', 'data', 'poster', 'background', 'lowsrc', 'dynsrc', 'values', 'to', 'from', 'by', 'codebase', 'cite', 'ping']);

/** A style attribute that reaches for script (old IE, old Firefox, a javascript: URL). */
const SCRIPTED_STYLE = /javascript:|vbscript:|expression\s*\(|-moz-binding|behavior\s*:/i;

const describe = (element: Element): string => element.outerHTML.slice(0, 120);

/** Everything under `root` a payload could have made: empty when the screen is clean. */
export function xssFindings(root: ParentNode = document.body): string[] {
  const found: string[] = [];
  for (const element of root.querySelectorAll('*')) {
    // A template's content is a fragment of its own: inert until cloned, so looked at too.
    if (element instanceof HTMLTemplateElement) found.push(...xssFindings(element.content));
    const tag = element.localName.toLowerCase();
    if (BANNED.has(tag)) found.push(`<${tag}> element: ${describe(element)}`);
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on')) found.push(`${name} handler: ${describe(element)}`);
      else if (name === 'srcdoc') found.push(`srcdoc: ${describe(element)}`);
      else if (URL_ATTRIBUTES.has(name) && isDangerousUrl(attribute.value)) found.push(`${name}=${JSON.stringify(attribute.value.slice(0, 60))}: ${describe(element)}`);
      else if (name === 'style' && SCRIPTED_STYLE.test(attribute.value)) found.push(`scripted style: ${describe(element)}`);
    }
  }
  return found;
}

/** The global inline handlers run in: jsdom compiles them in its own context, not vitest's `globalThis`. */
function handlerGlobal(): Record<string, unknown> {
  const probe = document.createElement('div');
  probe.setAttribute('onclick', 'return globalThis');
  return (probe.onclick as unknown as () => Record<string, unknown>)();
}

/** `__xss` wherever a payload could call it from, recording the vectors that ran. */
export function installMarker(): { calls: number[]; remove(): void } {
  const calls: number[] = [];
  const targets = [handlerGlobal(), globalThis as unknown as Record<string, unknown>];
  for (const target of targets) {
    target[XSS_MARKER] = (id: number) => {
      calls.push(id);
    };
  }
  return {
    calls,
    remove() {
      for (const target of targets) delete target[XSS_MARKER];
    },
  };
}

/**
 * Runs every inline handler under `root` (jsdom loads no pictures and fires no SVG load, so onerror
 * and onload would never run by themselves), so a handler that got in calls the marker. A handler
 * jsdom compiles is called directly; any other gets its event dispatched.
 */
export function fireHandlers(root: ParentNode = document.body): void {
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      if (!name.startsWith('on') || name.length <= 2) continue;
      const event = new Event(name.slice(2));
      const handler = (element as unknown as Record<string, unknown>)[name];
      try {
        if (typeof handler === 'function') (handler as (event: Event) => unknown).call(element, event);
        else element.dispatchEvent(event);
      } catch {
        // A payload that throws still counts if it called the marker first.
      }
    }
  }
}

const squeeze = (text: string): string => text.replace(/\s+/g, '');

/**
 * The vectors whose text is not shown by `elements` as text (their textContent, and the values of
 * text fields). `max` is for excerpts: whitespace is collapsed and the text cut to `max - 1`
 * characters before an ellipsis, as the lists do. Line breaks drawn as <br> are ignored.
 */
export function missingAsText(elements: readonly Element[], vectors: readonly XssVector[], max?: number): string[] {
  const values = elements.flatMap((element) => [
    element.textContent ?? '',
    ...(element.matches('textarea, input') ? [(element as HTMLInputElement).value] : []),
    ...[...element.querySelectorAll('textarea, input')].map((field) => (field as HTMLInputElement).value),
  ]);
  const shown = squeeze(values.join('\u0000'));
  return vectors
    .filter((vector) => {
      let text = vector.payload.replace(/\s+/g, ' ').trim();
      if (max !== undefined && text.length > max) text = text.slice(0, max - 1);
      return !shown.includes(squeeze(text));
    })
    .map((vector) => `#${vector.id} ${vector.label}`);
}

/** One field of a screen: where its text is shown, and the vectors put in it. */
export interface FieldCheck {
  /** The field, for the failure message ("voice entry description"). */
  readonly field: string;
  /** The elements that show it under the screen's root: a CSS selector, or a function that finds them. */
  readonly selector: string | ((root: Element) => Element[]);
  readonly vectors: readonly XssVector[];
  /** For an excerpt: its length before the ellipsis. */
  readonly max?: number;
}

let tally = 0;
/** How many (vector × field × screen) checks this test file made: each field check counts its vectors. */
export const checksMade = (): number => tally;

/**
 * The sweep's verdict on the screen on show: every inline handler run (none should exist), then
 * what ran, what the DOM holds that a payload made (all of document.body), and which vectors are
 * not on screen as text in their field. All three empty when the screen is safe.
 */
export async function sweepScreen(
  marker: { calls: number[] },
  root: Element,
  fields: readonly FieldCheck[],
  { settleMs = 20 }: { settleMs?: number } = {},
): Promise<{ ran: number[]; injected: string[]; notShownAsText: string[] }> {
  fireHandlers(document.body);
  await settle(settleMs);
  const notShownAsText: string[] = [];
  for (const check of fields) {
    const elements = typeof check.selector === 'string' ? [...root.querySelectorAll(check.selector)] : check.selector(root);
    if (elements.length === 0) notShownAsText.push(`${check.field}: nothing shows it`);
    else for (const missing of missingAsText(elements, check.vectors, check.max)) notShownAsText.push(`${check.field}: ${missing}`);
    tally += check.vectors.length;
  }
  return { ran: [...new Set(marker.calls)], injected: xssFindings(document.body), notShownAsText };
}

/**
 * Waits for the first element matching `selector` (holding `text`, when given). A CSS query, not a
 * role query: those compute every element's role and name, slow on screens of a hundred items.
 */
export async function shown(selector: string, text?: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = [...document.querySelectorAll<HTMLElement>(selector)].find((element) => text === undefined || (element.textContent ?? '').includes(text));
    if (!found) throw new Error(`Waiting for ${selector}${text === undefined ? '' : ` with "${text}"`}`);
  });
  return found!;
}

/** Lets timers, microtasks and any queued event run before the marker is read. */
export const settle = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
