/**
 * The rich text of a book page: HTML written by staff, stored as given when it passes this check,
 * refused (422, naming the page) when it does not (docs/decisions.md "Documents (issue 11): server").
 *
 * A strict allowlist read with a small tokenizer that follows how the HTML standard starts tags
 * (a `<` followed by a letter opens a tag, `</` + letter closes one, `<!` and `<?` are comments or
 * declarations; any other `<` is text), so what this sees as a tag is what a browser sees as one.
 * SPEC §5 forbids style and script tags and the onerror and onload attributes; the allowlist keeps
 * only text-level and block formatting, lists, tables and links:
 * - no other element: no script, style, img (a page's pictures are its `images`), svg, math,
 *   iframe, object, embed, form controls, textarea, title, noscript, template, base, meta, link...
 * - no attribute but a few per element (links: href, title; ordered lists: start; table cells:
 *   colspan, rowspan, scope; abbr: title), so no on* handler, style, class, id or src;
 * - links only to https:, http:, mailto: or a fragment, checked after character references are
 *   decoded and whitespace and control characters removed (`jav&#x61;script:` is refused);
 * - no comments, no CDATA, no processing instructions, no tag left open at the end, attribute
 *   values without `<`, `>` or backticks (no room for a parser-differential, "mutation" XSS).
 * The PWA also sanitises with DOMPurify and the SPEC §5 rule before it renders (src/lib/sanitize-html.ts).
 */

const PLAIN = ['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark', 'ul', 'li', 'blockquote', 'code', 'pre', 'span', 'div', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'caption'];

const ALLOWED: Record<string, Record<string, (value: string) => boolean>> = {
  ...Object.fromEntries(PLAIN.map((tag) => [tag, {}])),
  a: { href: safeHref, title: () => true },
  abbr: { title: () => true },
  ol: { start: (v) => /^-?\d{1,6}$/.test(v) },
  th: { colspan: cellSpan, rowspan: cellSpan, scope: (v) => ['row', 'col', 'rowgroup', 'colgroup'].includes(v.toLowerCase()) },
  td: { colspan: cellSpan, rowspan: cellSpan },
};

function cellSpan(value: string): boolean {
  return /^\d{1,3}$/.test(value) && Number(value) >= 1;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', colon: ':', sol: '/', period: '.', tab: '\t', newline: '\n', num: '#', quest: '?', equals: '=', percnt: '%', plus: '+', lpar: '(', rpar: ')' };

/** The value with character references decoded, or null when one cannot be read (refused). */
function decodeReferences(value: string): string | null {
  let unreadable = false;
  const decoded = value.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);?/g, (_, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code > 0x10ffff) {
        unreadable = true;
        return '';
      }
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref.toLowerCase()];
    if (named === undefined) unreadable = true;
    return named ?? '';
  });
  return unreadable ? null : decoded;
}

function safeHref(value: string): boolean {
  const decoded = decodeReferences(value);
  if (decoded === null) return false;
  // What a browser ignores in a URL's scheme: ASCII whitespace and control characters anywhere.
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const compact = decoded.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  return /^(https?:\/\/|mailto:|#)/.test(compact);
}

const WHITESPACE = /[\t\n\f\r ]/;

/**
 * Null when the HTML is allowed; otherwise the first reason it is not, in words staff understand.
 */
export function richTextProblem(html: string): string | null {
  let i = 0;
  const n = html.length;
  const at = (k: number) => html[k] ?? '';
  const isAlpha = (c: string) => /^[A-Za-z]$/.test(c);
  const skipSpace = () => {
    while (i < n && WHITESPACE.test(at(i))) i++;
  };

  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1) return null;
    i = lt;
    const next = at(i + 1);
    if (next === '!' || next === '?') return 'Comments and declarations (<!… or <?…) are not allowed';
    if (next === '/') {
      if (!isAlpha(at(i + 2))) return 'A "</" must start a closing tag';
      const match = /^<\/([A-Za-z][A-Za-z0-9]*)/.exec(html.slice(i, i + 80));
      const name = match![1]!.toLowerCase();
      if (!Object.hasOwn(ALLOWED, name)) return tagProblem(name);
      i += match![0].length;
      skipSpace();
      if (at(i) !== '>') return `The closing tag </${name}> cannot have anything else in it`;
      i++;
      continue;
    }
    if (!isAlpha(next)) {
      // `<` then a space, a digit...: text, as a browser reads it.
      i++;
      continue;
    }
    const match = /^<([A-Za-z][A-Za-z0-9]*)/.exec(html.slice(i, i + 80));
    const name = match![1]!.toLowerCase();
    if (!Object.hasOwn(ALLOWED, name)) return tagProblem(name);
    const rules = ALLOWED[name]!;
    i += match![0].length;
    const seen = new Set<string>();
    for (;;) {
      const before = i;
      skipSpace();
      if (i >= n) return `The tag <${name}> is not closed`;
      if (at(i) === '>') {
        i++;
        break;
      }
      if (at(i) === '/' && at(i + 1) === '>') {
        i += 2;
        break;
      }
      if (i === before) return `The tag <${name}> cannot be read`;
      const attr = /^[^\t\n\f\r />"'=<`]+/.exec(html.slice(i, i + 200));
      if (!attr) return `The tag <${name}> cannot be read`;
      const attrName = attr[0].toLowerCase();
      i += attr[0].length;
      if (attrName.startsWith('on')) return `Event handlers such as ${attrName} are not allowed`;
      if (!Object.hasOwn(rules, attrName)) return `The ${attrName} attribute is not allowed on <${name}>`;
      if (seen.has(attrName)) return `The ${attrName} attribute is given twice on <${name}>`;
      seen.add(attrName);
      skipSpace();
      if (at(i) !== '=') return `The ${attrName} attribute on <${name}> needs a value`;
      i++;
      skipSpace();
      let value: string;
      const quote = at(i);
      if (quote === '"' || quote === "'") {
        const end = html.indexOf(quote, i + 1);
        if (end === -1) return `The tag <${name}> is not closed`;
        value = html.slice(i + 1, end);
        i = end + 1;
      } else {
        const unquoted = /^[^\t\n\f\r >]+/.exec(html.slice(i, i + 2000));
        if (!unquoted) return `The ${attrName} attribute on <${name}> needs a value`;
        value = unquoted[0];
        i += value.length;
        if (/["'=`]/.test(value)) return `Put the ${attrName} value on <${name}> in quotes`;
      }
      if (/[<>`]/.test(value)) return `The ${attrName} value on <${name}> cannot hold <, > or backticks`;
      if (!rules[attrName]!(value)) {
        return attrName === 'href' ? 'Links can go to https:, http:, mailto: or a place on the page only' : `The ${attrName} value on <${name}> is not allowed`;
      }
      if (!WHITESPACE.test(at(i)) && at(i) !== '>' && at(i) !== '/') return `The tag <${name}> cannot be read`;
    }
  }
  return null;
}

function tagProblem(name: string): string {
  if (name === 'img') return 'Pictures go in the page’s pictures, not in its text';
  return `The <${name}> tag is not allowed`;
}
