import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '@/lib/sanitize-html';

const parse = (html: string) => {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
};

describe('sanitizeHtml (SPEC §5)', () => {
  it('removes script and style tags', () => {
    const out = sanitizeHtml('<p>hi</p><script>alert(1)</script><style>body{display:none}</style>');
    expect(out).toBe('<p>hi</p>');
  });

  it('removes onerror, onload and every other on* handler, keeping the element', () => {
    const out = sanitizeHtml('<img src="x.png" onerror="alert(1)" onload="alert(2)"><b onclick="alert(3)" onmouseover="alert(4)">bold</b>');
    const content = parse(out);
    const img = content.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('x.png');
    for (const element of content.querySelectorAll('*')) {
      expect([...element.attributes].map((a) => a.name).filter((name) => name.startsWith('on'))).toEqual([]);
    }
    expect(content.querySelector('b')!.textContent).toBe('bold');
  });

  it('drops javascript: links and keeps ordinary markup', () => {
    const out = sanitizeHtml('<a href="javascript:alert(1)">x</a><em>ok</em><a href="https://example.org">link</a>');
    const content = parse(out);
    const links = content.querySelectorAll('a');
    expect(links[0]!.getAttribute('href')).toBeNull();
    expect(links[1]!.getAttribute('href')).toBe('https://example.org');
    expect(content.querySelector('em')!.textContent).toBe('ok');
  });

  it('leaves plain text alone', () => {
    expect(parse(sanitizeHtml('Fish & chips on Friday')).textContent).toBe('Fish & chips on Friday');
  });
});
