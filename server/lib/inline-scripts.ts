import { createHash } from 'node:crypto';

/**
 * The CSP sources (`'sha256-…'`) that allow exactly the inline scripts of an HTML document: every
 * `<script>` without a `src`, hashed over its text as written. The PWA's index.html has one, the
 * first-paint script (issue 13); a changed or injected script matches no hash and does not run.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push(`'sha256-${createHash('sha256').update(match[1] ?? '', 'utf8').digest('base64')}'`);
  }
  return hashes;
}
