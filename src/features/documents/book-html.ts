import { sanitizeHtml } from '@/lib/sanitize-html';

/**
 * What a book page's HTML may hold on screen: the server's allowlist (docs/api.md "Page HTML"),
 * checked again here after DOMPurify so a page can never carry more than staff could send.
 */
const ALLOWED_TAGS = new Set([
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark',
  'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'span', 'div', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'caption', 'abbr', 'a',
]);
const ALLOWED_ATTRIBUTES: Record<string, ReadonlySet<string>> = {
  a: new Set(['href', 'title']),
  abbr: new Set(['title']),
  ol: new Set(['start']),
  th: new Set(['colspan', 'rowspan', 'scope']),
  td: new Set(['colspan', 'rowspan']),
};
/** Elements that go with everything inside them (the rest are unwrapped: their text stays). */
const DROPPED = new Set(['script', 'style', 'template', 'iframe', 'frame', 'object', 'embed', 'img', 'picture', 'video', 'audio', 'source', 'track', 'svg', 'math', 'canvas', 'form', 'input', 'button', 'select', 'textarea', 'link', 'meta', 'base', 'noscript']);
const SAFE_HREF = /^(https?:|mailto:|#)/i;

function restrict(node: Element | DocumentFragment): void {
  for (const child of [...node.children]) {
    const tag = child.localName;
    if (DROPPED.has(tag)) {
      child.remove();
      continue;
    }
    restrict(child);
    if (!ALLOWED_TAGS.has(tag)) {
      child.replaceWith(...child.childNodes);
      continue;
    }
    const allowed = ALLOWED_ATTRIBUTES[tag];
    for (const attribute of [...child.attributes]) {
      if (!allowed?.has(attribute.name)) child.removeAttribute(attribute.name);
    }
    if (tag === 'a') {
      const href = (child.getAttribute('href') ?? '').trim();
      if (href && !SAFE_HREF.test(href)) child.removeAttribute('href');
      // Links to other sites open in a new tab without telling them where from.
      if (/^https?:/i.test(href)) {
        child.setAttribute('target', '_blank');
        child.setAttribute('rel', 'noopener noreferrer');
      }
    }
  }
}

/**
 * A book page's HTML as it may be shown: always through DOMPurify with SPEC §5's rule first
 * (src/lib/sanitize-html.ts: no script or style tags, no on* handlers), whatever the server checked
 * on the way in; then the server's own allowlist again (no pictures in the HTML: a page's pictures
 * are its `images`, with their descriptions).
 */
export function bookPageHtml(html: string): string {
  const clean = sanitizeHtml(html);
  if (typeof document === 'undefined') return clean;
  const template = document.createElement('template');
  template.innerHTML = clean;
  restrict(template.content);
  return template.innerHTML;
}
