/**
 * Issue 12's XSS sweep: the vectors, after the kinds of the OWASP XSS Filter Evasion and XSS
 * Prevention cheat sheets (tags, event handlers, URLs, SVG, CSS, encodings, mutation XSS, context
 * breakouts, frames and embeds, head elements). One list for every test that puts hostile text into
 * a field (tests/web/xss-*.test.ts[x], tests/server/xss-output.test.ts).
 *
 * Every payload, if it ever ran, calls `__xss(id)` (or `parent.__xss(id)` from inside a frame), so a
 * test that installs `window.__xss` can tell execution apart from text and name the vector that ran.
 * `live` says whether the payload is dangerous markup when a page parses it as HTML as it stands (the
 * positive control, tests/web/xss-sanitiser.test.ts, checks the DOM scan finds exactly those);
 * the others are text that becomes dangerous only if some code decodes it or pastes it into a
 * script, template or attribute.
 *
 * No NUL and no lone surrogates: the server refuses those before anything else (issue 12,
 * finding 1; tests/server/hostile-input.test.ts), so they never reach a screen.
 */
export type XssKind = 'script' | 'handler' | 'url' | 'svg' | 'css' | 'encoding' | 'mutation' | 'breakout' | 'frame' | 'head';

export interface XssVector {
  /** 1-based, the number the payload passes to `__xss`. */
  readonly id: number;
  readonly kind: XssKind;
  /** What it tries, in a few words. */
  readonly label: string;
  readonly payload: string;
  /** Dangerous as HTML as it stands (see the module comment). */
  readonly live: boolean;
}

type Spec = readonly [kind: XssKind, label: string, payload: (run: string, id: number) => string, live?: boolean];

const SPECS: readonly Spec[] = [
  // <script> in many spellings
  ['script', 'plain script tag', (run) => `<script>${run}</script>`],
  ['script', 'upper-case script tag', (run) => `<SCRIPT>${run}</SCRIPT>`],
  ['script', 'mixed-case script tag', (run) => `<ScRiPt>${run}</sCrIpT>`],
  ['script', 'script with a data: src', (run) => `<script src="data:text/javascript,${run}"></script>`],
  ['script', 'slash instead of a space', (run) => `<script/src="data:,${run}"></script>`],
  ['script', 'newline inside the tag', (run) => `<script\n>${run}</script\n>`],
  ['script', 'doubled open bracket', (run) => `<<script>${run}//<</script>`],
  ['script', 'module script', (run) => `<script type="module">${run}</script>`],
  ['script', 'nested to survive one pass of a stripper', (run) => `<scr<script>ipt>${run}</scr</script>ipt>`, false],
  ['script', 'unclosed script', (run) => `<script>${run}<!--`],
  // event-handler attributes
  ['handler', 'img onerror, unquoted', (run) => `<img src=x onerror=${run}>`],
  ['handler', 'img onerror, quoted', (run) => `<img src="x" onerror="${run}">`],
  ['handler', 'upper-case IMG ONERROR', (run) => `<IMG SRC=x ONERROR=${run}>`],
  ['handler', 'slashes instead of spaces', (run) => `<img/src="x"/onerror=${run}>`],
  ['handler', 'newline before the equals sign', (run) => `<img src=x onerror\n=${run}>`],
  ['handler', 'svg onload', (run) => `<svg onload=${run}>`],
  ['handler', 'svg/onload', (run) => `<svg/onload=${run}>`],
  // A body or frameset tag inside a page's body is dropped by the parser (not live here); it is live in a whole document.
  ['handler', 'body onload', (run) => `<body onload=${run}>`, false],
  ['handler', 'details open ontoggle', (run) => `<details open ontoggle=${run}>`],
  ['handler', 'input autofocus onfocus', (run) => `<input autofocus onfocus=${run}>`],
  ['handler', 'video source onerror', (run) => `<video><source onerror="${run}"></video>`],
  ['handler', 'audio onerror', (run) => `<audio src=x onerror=${run}>`],
  ['handler', 'div onmouseover', (run) => `<div onmouseover="${run}">hover me</div>`],
  ['handler', 'button onclick', (run) => `<button onclick="${run}">click me</button>`],
  ['handler', 'marquee onstart', (run) => `<marquee onstart=${run}>`],
  ['handler', 'entity-encoded handler body', (_run, id) => `<img src=x onerror="&#95;&#95;xss(${id})">`],
  // javascript:, data:, vbscript: URLs, plain and obfuscated
  ['url', 'javascript: link', (run) => `<a href="javascript:${run}">link</a>`],
  ['url', 'mixed-case JaVaScRiPt:', (run) => `<a href="JaVaScRiPt:${run}">link</a>`],
  ['url', 'leading space and control character', (run) => `<a href=" \u0001javascript:${run}">link</a>`],
  ['url', 'tab entity inside the scheme', (run) => `<a href="jav&#x09;ascript:${run}">link</a>`],
  ['url', 'newline entity inside the scheme', (run) => `<a href="jav&#x0A;ascript:${run}">link</a>`],
  ['url', 'raw tab inside the scheme', (run) => `<a href="java\tscript:${run}">link</a>`],
  ['url', 'named entities &Tab; and &colon;', (run) => `<a href="java&Tab;script&colon;${run}">link</a>`],
  ['url', 'decimal entities', (run) => `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${run}">link</a>`],
  ['url', 'zero-padded entity without a semicolon', (run) => `<a href="&#0000106avascript:${run}">link</a>`],
  ['url', 'hex entities', (run) => `<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${run}">link</a>`],
  ['url', 'data:text/html link', (run) => `<a href="data:text/html,<script>parent.${run}</script>">link</a>`],
  ['url', 'base64 data:text/html link', (_run, id) => `<a href="data:text/html;base64,${btoa(`<script>parent.__xss(${id})</script>`)}">link</a>`],
  ['url', 'vbscript: link', (run) => `<a href="vbscript:${run}">link</a>`],
  ['url', 'form action javascript:', (run) => `<form action="javascript:${run}"><button>go</button></form>`],
  ['url', 'button formaction javascript:', (run) => `<form><button formaction="javascript:${run}">go</button></form>`],
  ['url', 'img src javascript:', (run) => `<img src="javascript:${run}">`],
  ['url', 'MathML link', (run) => `<math><a xlink:href="javascript:${run}" href="javascript:${run}">link</a></math>`],
  // SVG
  ['svg', 'script inside svg', (run) => `<svg><script>${run}</script></svg>`],
  ['svg', 'svg script href', (run) => `<svg><script href="data:,${run}"></script></svg>`],
  ['svg', 'svg a xlink:href javascript:', (run) => `<svg><a xlink:href="javascript:${run}"><text x="0" y="20">link</text></a></svg>`],
  ['svg', 'svg animate onbegin', (run) => `<svg><animate onbegin="${run}" attributeName="x" dur="1s"></animate></svg>`],
  ['svg', 'svg animate sets an href', (run) => `<svg><a><animate attributeName="href" values="javascript:${run}"></animate><text x="0" y="20">link</text></a></svg>`],
  ['svg', 'svg set writes onload', (run) => `<svg><set attributeName="onload" to="${run}"></set></svg>`],
  ['svg', 'svg image onerror', (run) => `<svg><image href="x" onerror="${run}"></image></svg>`],
  ['svg', 'foreignObject with a script', (run) => `<svg><foreignObject><iframe srcdoc="<script>parent.${run}</script>"></iframe></foreignObject></svg>`],
  // CSS
  ['css', 'style @import javascript:', (run) => `<style>@import 'javascript:${run}';</style>`],
  ['css', 'style url(javascript:)', (run) => `<style>body{background:url("javascript:${run}")}</style>`],
  ['css', 'style attribute url(javascript:)', (run) => `<div style="background:url(javascript:${run})">x</div>`],
  ['css', 'style attribute expression()', (run) => `<div style="width:expression(${run})">x</div>`],
  ['css', 'style block expression()', (run) => `<style>*{x:expression(${run})}</style>`],
  ['css', 'stylesheet link to javascript:', (run) => `<link rel="stylesheet" href="javascript:${run}">`],
  ['css', 'animation start handler', (run) => `<style>@keyframes x{}</style><p style="animation-name:x" onanimationstart="${run}">x</p>`],
  // encodings
  ['encoding', 'HTML entities', (run) => `&lt;script&gt;${run}&lt;/script&gt;`, false],
  ['encoding', 'numeric entities', (run) => `&#60;img src=x onerror=${run}&#62;`, false],
  ['encoding', 'percent-encoded', (run) => `%3Cscript%3E${run}%3C%2Fscript%3E`, false],
  ['encoding', 'double percent-encoded', (run) => `%253Cimg%2520src%253Dx%2520onerror%253D${run}%253E`, false],
  ['encoding', 'JavaScript unicode escapes', (run) => `\\u003cscript\\u003e${run}\\u003c/script\\u003e`, false],
  ['encoding', 'JavaScript hex escapes', (run) => `\\x3cimg src=x onerror=${run}\\x3e`, false],
  ['encoding', 'UTF-7', (run) => `+ADw-script+AD4-${run}+ADw-/script+AD4-`, false],
  ['encoding', 'full-width brackets', (run) => `＜script＞${run}＜/script＞`, false],
  ['encoding', 'double-encoded entity in a URL', (run) => `<a href="&#x26;#x6A;avascript:${run}">link</a>`, false],
  // mutation XSS (parser differentials)
  ['mutation', 'noscript title breakout', (run) => `<noscript><p title="</noscript><img src=x onerror=${run}>">`],
  ['mutation', 'math mtext table mglyph style', (run) => `<math><mtext><table><mglyph><style><img src=x onerror=${run}>`],
  ['mutation', 'svg closing p then style', (run) => `<svg></p><style><a id="</style><img src=1 onerror=${run}>">`],
  ['mutation', 'nested forms in math', (run) => `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${run}>`],
  ['mutation', 'DOMPurify 2.0.17 bypass shape', (run) => `<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=${run}>"></style></h1>`],
  ['mutation', 'svg p style', (run) => `<svg><p><style><img src=x onerror=${run}></style></p></svg>`],
  ['mutation', 'comment that closes early', (run) => `<!--<img src="--><img src=x onerror=${run}//">`],
  ['mutation', 'textarea title breakout', (run) => `<textarea><img title="</textarea><img src=x onerror=${run}>">`],
  ['mutation', 'title breakout', (run) => `<title><img title="</title><img src=x onerror=${run}>">`],
  ['mutation', 'xmp breakout', (run) => `<xmp><p title="</xmp><img src=x onerror=${run}>">`],
  ['mutation', 'CDATA inside svg', (run) => `<svg><![CDATA[><image xlink:href="]]><img src=x onerror=${run}//"></svg>`],
  ['mutation', 'template content', (run) => `<template><img src=x onerror=${run}></template>`],
  // breaking out of a context (attribute, script, template)
  ['breakout', 'double-quoted attribute breakout', (run) => `"><img src=x onerror=${run}>`],
  ['breakout', 'single-quoted attribute breakout', (run) => `'><img src=x onerror=${run}>`],
  ['breakout', 'attribute injection without a tag', (run) => `" autofocus onfocus="${run}" x="`, false],
  ['breakout', 'single-quoted JavaScript string', (run) => `'-${run}-'`, false],
  ['breakout', 'double-quoted JavaScript string', (run) => `";${run};//`, false],
  ['breakout', 'AngularJS template', (_run, id) => `{{constructor.constructor('__xss(${id})')()}}`, false],
  ['breakout', 'JavaScript template literal', (run) => `\${${run}}`, false],
  ['breakout', 'a bare javascript: URL', (run) => `javascript:${run}`, false],
  ['breakout', 'closing a textarea', (run) => `</textarea><script>${run}</script>`],
  ['breakout', 'closing a script', (run) => `</script><script>${run}</script>`],
  ['breakout', 'closing a title and a style', (run) => `</title></style><svg/onload=${run}>`],
  // frames and embedded objects
  ['frame', 'iframe srcdoc', (run) => `<iframe srcdoc="<script>parent.${run}</script>"></iframe>`],
  ['frame', 'iframe src javascript:', (run) => `<iframe src="javascript:parent.${run}"></iframe>`],
  ['frame', 'iframe src data:text/html', (run) => `<iframe src="data:text/html,<script>parent.${run}</script>"></iframe>`],
  ['frame', 'object data javascript:', (run) => `<object data="javascript:${run}"></object>`],
  ['frame', 'object data:text/html', (run) => `<object data="data:text/html,<script>parent.${run}</script>"></object>`],
  ['frame', 'embed src javascript:', (run) => `<embed src="javascript:${run}">`],
  ['frame', 'embed an svg data: URL', (run) => `<embed src="data:image/svg+xml,<svg onload='parent.${run}'/>">`],
  ['frame', 'frameset onload', (run) => `<frameset onload=${run}>`, false],
  // head elements
  ['head', 'meta refresh to javascript:', (run) => `<meta http-equiv="refresh" content="0;url=javascript:${run}">`],
  ['head', 'base href', (run) => `<base href="javascript:${run}//">`],
  ['head', 'link rel=import', (run) => `<link rel="import" href="data:text/html,<script>parent.${run}</script>">`],
];

export const XSS_VECTORS: readonly XssVector[] = SPECS.map(([kind, label, make, live = true], index) => {
  const id = index + 1;
  return { id, kind, label, payload: make(`__xss(${id})`, id), live };
});

/** The marker a payload calls if it runs. */
export const XSS_MARKER = '__xss';

/** All the payloads in one string, one per line: for single-value fields (a heading, a textarea). */
export const ALL_PAYLOADS = XSS_VECTORS.map((v) => v.payload).join('\n');

/**
 * A URL value a browser would run or render as a page: javascript:, vbscript:, livescript: or any
 * data: URL other than a raster picture, after what URL parsing ignores (leading and trailing C0
 * controls and spaces, tabs and newlines anywhere) and in any case. Attribute values read from the
 * DOM have their character references decoded already.
 */
export function isDangerousUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  const url = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  if (/^(javascript|vbscript|livescript):/.test(url)) return true;
  return url.startsWith('data:') && !/^data:image\/(png|jpeg|gif|webp)[;,]/.test(url);
}
