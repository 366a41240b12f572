import DOMPurify from 'dompurify';

/**
 * SPEC §5: user-supplied HTML is sanitised: `style` and `script` tags and the `onerror` and `onload`
 * attributes are forbidden, and so is every other `on*` handler. Hearth renders what people write as
 * plain text everywhere; use this only where markup is really meant to be shown.
 */
export function sanitizeHtml(dirty: string): string {
  const clean = DOMPurify.sanitize(dirty, {
    FORBID_TAGS: ['style', 'script'],
    // style: no scripted CSS (url(javascript:), expression()) even where a browser still honoured it; the server refuses it too.
    FORBID_ATTR: ['onerror', 'onload', 'style'],
    RETURN_TRUSTED_TYPE: false,
  });
  return stripHandlers(clean);
}

/** Belt and braces: DOMPurify drops handlers already; this removes any `on*` attribute that slips past. */
function stripHandlers(html: string): string {
  if (!/\son[a-z]/i.test(html) || typeof document === 'undefined') return html;
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      if (/^on/i.test(attribute.name)) element.removeAttribute(attribute.name);
    }
  }
  return template.innerHTML;
}
