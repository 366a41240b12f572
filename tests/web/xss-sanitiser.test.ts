import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookPageHtml } from '@/features/documents/book-html';
import { sanitizeHtml } from '@/lib/sanitize-html';
import { XSS_VECTORS } from '../support/xss-vectors';
import { fireHandlers, installMarker, missingAsText, settle, xssFindings } from './support/xss-scan';

/**
 * Issue 12's XSS sweep, the sanitiser: every vector of tests/support/xss-vectors.ts through
 * src/lib/sanitize-html.ts (DOMPurify with SPEC §5's rule) and through bookPageHtml (that, then the
 * book pages' allowlist), alone and inside ordinary text; the page renders the result in
 * tests/web/xss-documents.test.tsx. First the positive control: the same vectors put into the page
 * as HTML, unsanitised, are seen by the scan and their handlers call the marker, so a clean result
 * below means something.
 */
let marker: ReturnType<typeof installMarker>;
beforeEach(() => {
  marker = installMarker();
});
afterEach(() => {
  marker.remove();
});

const fragment = (html: string): DocumentFragment => {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
};

describe('the vectors', () => {
  it('are at least 50, of every kind, each with its own marker number', () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(XSS_VECTORS.map((v) => v.kind))).toEqual(new Set(['script', 'handler', 'url', 'svg', 'css', 'encoding', 'mutation', 'breakout', 'frame', 'head']));
    for (const vector of XSS_VECTORS) {
      const calls = [`__xss(${vector.id})`, `&#95;&#95;xss(${vector.id})`, btoa(`<script>parent.__xss(${vector.id})</script>`)];
      expect(calls.some((call) => vector.payload.includes(call)), vector.label).toBe(true);
    }
  });

  it('positive control: put into the page as HTML, exactly the live ones are found, and their handlers call the marker', async () => {
    const found: number[] = [];
    const withHandlers: number[] = [];
    const shownAsText: number[] = [];
    for (const vector of XSS_VECTORS) {
      // Not attached to the page: a <base> or a stylesheet in a vector then changes nothing else.
      const box = document.createElement('div');
      box.innerHTML = vector.payload; // what a bug would do
      if (xssFindings(box).length > 0) found.push(vector.id);
      // Parsed as markup, a live vector's characters are not on screen as text either.
      if (vector.live && missingAsText([box], [vector]).length === 0) shownAsText.push(vector.id);
      // Handlers jsdom can run (it has no SVG onload, onbegin, onstart or animation events: the scan finds those).
      const runnable = (e: Element) => e.getAttributeNames().some((n) => n.toLowerCase().startsWith('on') && typeof (e as unknown as Record<string, unknown>)[n.toLowerCase()] === 'function');
      if ([...box.querySelectorAll('*')].some(runnable)) withHandlers.push(vector.id);
      fireHandlers(box);
      await settle(0);
    }
    expect(found).toEqual(XSS_VECTORS.filter((v) => v.live).map((v) => v.id));
    expect(shownAsText).toEqual([]);
    expect(withHandlers.length).toBeGreaterThanOrEqual(20);
    expect(withHandlers.filter((id) => !marker.calls.includes(id))).toEqual([]);
  });
});

describe('sanitizeHtml (SPEC §5) with every vector', () => {
  it.each(['alone', 'inside a paragraph'] as const)('%s: nothing that runs is left, and the marker is never called', async (where) => {
    const problems: string[] = [];
    for (const vector of XSS_VECTORS) {
      const html = where === 'alone' ? vector.payload : `<p>Before ${vector.payload} after</p>`;
      const clean = sanitizeHtml(html);
      const content = fragment(clean);
      // What can run or load counts here. DOMPurify's defaults keep MathML, inert <template>s (their
      // handlers removed) and style attributes (CSS can run no script in the browsers Hearth supports):
      // the page's allowlist removes all three (below, and tests/web/xss-documents.test.tsx renders it).
      const kept = /^(<(math|mglyph|marquee|template)> element|scripted style): /;
      for (const finding of xssFindings(content).filter((f) => !kept.test(f))) problems.push(`#${vector.id} ${vector.label}: ${finding}`);
      for (const element of content.querySelectorAll('script, style')) problems.push(`#${vector.id}: <${element.localName}> kept`);
      const box = document.createElement('div');
      document.body.append(box);
      box.innerHTML = clean;
      fireHandlers(box);
      box.remove();
    }
    await settle();
    expect(problems).toEqual([]);
    expect(marker.calls).toEqual([]);
  });

  it('keeps the text of the text-only vectors as text', () => {
    for (const vector of XSS_VECTORS.filter((v) => !v.live && !/<[a-z!/]/i.test(v.payload))) {
      const shown = fragment(sanitizeHtml(vector.payload)).textContent ?? '';
      // The entity vectors are decoded once by the parser (that is what an entity is): never twice.
      expect(shown.includes(`__xss(${vector.id})`) || shown.includes(`&#95;&#95;xss(${vector.id})`), vector.label).toBe(true);
      expect(fragment(sanitizeHtml(vector.payload)).querySelector('*'), vector.label).toBeNull();
    }
  });
});

describe('bookPageHtml (a book page as it may be shown) with every vector', () => {
  const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'start', 'colspan', 'rowspan', 'scope', 'target', 'rel']);

  it.each(['alone', 'inside a paragraph', 'all at once'] as const)('%s: only the allowlist is left, links only http(s), mailto or #', (where) => {
    const inputs = where === 'all at once' ? [XSS_VECTORS.map((v) => v.payload).join('\n')] : XSS_VECTORS.map((v) => (where === 'alone' ? v.payload : `<p>Before ${v.payload} after</p>`));
    const problems: string[] = [];
    inputs.forEach((html, i) => {
      const content = fragment(bookPageHtml(html));
      const name = where === 'all at once' ? 'all' : `#${XSS_VECTORS[i]!.id} ${XSS_VECTORS[i]!.label}`;
      for (const finding of xssFindings(content)) problems.push(`${name}: ${finding}`);
      for (const element of content.querySelectorAll('*')) {
        for (const attribute of element.getAttributeNames()) if (!ALLOWED_ATTRIBUTES.has(attribute)) problems.push(`${name}: <${element.localName} ${attribute}>`);
        const href = element.getAttribute('href');
        if (href !== null && !/^(https?:|mailto:|#)/i.test(href.trim())) problems.push(`${name}: href ${href}`);
        if (['img', 'svg', 'form', 'input', 'button', 'textarea', 'select', 'video', 'audio', 'source', 'details', 'title'].includes(element.localName)) problems.push(`${name}: <${element.localName}>`);
      }
    });
    expect(problems).toEqual([]);
  });
});
