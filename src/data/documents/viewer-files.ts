/**
 * The PDF viewer's engine as files of this origin (issue 11): pdf.js's own minified ES module and
 * its worker, copied by Vite as they are (hashed names, `.mjs`), never bundled into a chunk. Only
 * their addresses are here (two short strings): the viewer imports the engine from its address when
 * a PDF is opened; the service worker caches both on demand (sw/sw.ts "viewer code"), outside the
 * precache the app installs with.
 */
import engineUrl from 'pdfjs-dist/build/pdf.min.mjs?url';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export const PDF_VIEWER_FILES = { engine: engineUrl, worker: workerUrl } as const;
