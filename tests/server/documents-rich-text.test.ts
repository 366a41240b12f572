import { describe, expect, it } from 'vitest';
import { PAYLOADS } from '../../e2e/support/xss-payloads';
import { richTextProblem } from '../../server/domain/documents/rich-text';

/**
 * The book pages' rich-text rule (server/domain/documents/rich-text.ts): the journal sweep's XSS
 * payloads and the usual parser tricks are refused; ordinary formatting, lists, tables and links pass.
 */
describe('rich text of book pages', () => {
  it('refuses every payload of the journal XSS sweep, alone and inside ordinary text', () => {
    for (const [name, payload] of Object.entries(PAYLOADS)) {
      expect(richTextProblem(payload), name).not.toBeNull();
      expect(richTextProblem(`<p>Hello ${payload} there</p>`), name).not.toBeNull();
    }
  });

  it('refuses SPEC §5: style and script tags, onerror and onload (any case, any spacing)', () => {
    const cases: [string, RegExp][] = [
      ['<script>alert(1)</script>', /<script> tag is not allowed/],
      ['<SCRIPT SRC=//x.js></SCRIPT>', /<script> tag/],
      ['<style>p{color:red}</style>', /<style> tag/],
      ['<p style="color:red">x</p>', /style attribute is not allowed/],
      ['<p onload="x()">x</p>', /onload are not allowed/],
      ['<b ONERROR=x()>x</b>', /onerror are not allowed/],
      ['<p\nonclick="x()">x</p>', /onclick are not allowed/],
      ['<a href="#" onmouseover="x()">x</a>', /onmouseover/],
      ['<img src=x onerror=alert(1)>', /Pictures go in/],
    ];
    for (const [html, message] of cases) expect(richTextProblem(html), html).toMatch(message);
  });

  it('refuses dangerous links however they are written', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'jav&#x61;script:alert(1)', 'jav&#97;script:x', 'java&Tab;script:x', 'java\tscript:x', 'data:text/html,<b>', 'vbscript:x', '//evil.example/x', '&#0000106avascript:x', 'jav&unknown;ascript:x']) {
      expect(richTextProblem(`<a href="${href}">x</a>`), href).not.toBeNull();
    }
    expect(richTextProblem('<a href=javascript:alert(1)>x</a>')).not.toBeNull();
  });

  it('refuses what browsers parse differently from a simple reader (mutation XSS)', () => {
    for (const html of [
      '<!-- <img src=x onerror=alert(1)> -->',
      '<![CDATA[<script>x</script>]]>',
      '<?xml version="1.0"?>',
      '<svg><p><style><img src=x onerror=alert(1)></style></p></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      '<p title="</p><img src=x onerror=alert(1)>">x</p>',
      '<p title=`x`>x</p>',
      '<template><script>x</script></template>',
      '<textarea><script>x</script></textarea>',
      '<iframe srcdoc="x"></iframe>',
      '<object data="x"></object>',
      '<embed src="x">',
      '<form action="x"><input name="a"></form>',
      '<base href="https://evil.example/">',
      '<meta http-equiv="refresh" content="0;url=javascript:x">',
      '<link rel="stylesheet" href="x">',
      '<p class="x" id="y">x</p>',
      '<a href="https://ok.example" href="javascript:x">x</a>',
      '<p',
      '<a href="https://ok.example>x</a>',
      '</p onclick=x>',
      '</ p>',
      '<p/onclick=alert(1)>',
      '<p-x>',
      '<b<script>>',
    ]) {
      expect(richTextProblem(html), html).not.toBeNull();
    }
  });

  it('keeps ordinary rich text as given', () => {
    for (const html of [
      '',
      'Just words, with 3 < 4 and a > sign & an ampersand.',
      '<h2>Welcome</h2><p>We are <strong>glad</strong> you are <em>here</em>.<br>See you soon.</p>',
      '<ul><li>One</li><li>Two</li></ul><ol start="3"><li>Three</li></ol>',
      '<table><thead><tr><th scope="col">Name</th></tr></thead><tbody><tr><td colspan="2">Ali</td></tr></tbody></table>',
      '<p>Call <a href="https://www.childline.org.uk/" title="Childline">Childline</a> or <a href="mailto:help@example.org">email</a>.</p>',
      '<p><a href="https://example.org/?a=1&amp;b=2">query</a> <a href="#top">top</a></p>',
      '<blockquote>Quote</blockquote><hr/><p>I &lt;3 this &amp; that &#x1F600;</p>',
      '<P>Upper-case tags are fine</P>',
    ]) {
      expect(richTextProblem(html), html).toBeNull();
    }
  });
});
