/**
 * The XSS payloads of the journal sweep (e2e/support/xss.ts), on their own so that tests without a
 * browser (tests/server/documents-rich-text.test.ts) use the very same strings.
 */
export const PAYLOAD = '<img src=x data-xss onerror="window.__xss=1;alert(1)"><script data-xss>window.__xss=2</script>';

export const PAYLOADS = {
  /** Tags straight into the text. */
  tags: PAYLOAD,
  /** Breaking out of a double- or single-quoted attribute, then a tag. */
  attribute: `"><img src=x data-xss onerror="window.__xss=3;alert(3)">'><svg data-xss onload="window.__xss=4">`,
  /** Breaking out of the textarea (and a title, a style) it is pre-filled into. */
  textarea: `</textarea></title></style><script data-xss>window.__xss=5</script><svg/onload=window.__xss=6 data-xss>`,
  /** A frame, an event on a common element, a javascript: link. */
  frames: `<iframe data-xss srcdoc="<script>parent.__xss=7</script>"></iframe><a data-xss href="javascript:window.__xss=8">x</a>`,
} as const;
