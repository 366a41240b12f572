import { PDF_VIEWER_FILES } from './viewer-files';

/**
 * Asks the service worker to keep the PDF viewer's code for offline use (sw/sw.ts "viewer code": it
 * is not installed with the rest of the app). Sent when a keeping pass leaves a PDF on the device
 * (after an app update the new build's files are fetched once) and when a PDF is opened. The worker
 * fetches only what it does not have yet. Works before the worker controls the page (a first
 * visit); does nothing where there is no worker.
 */
export function keepViewerCode(): void {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!container || typeof location === 'undefined') return;
  const urls = [PDF_VIEWER_FILES.engine, PDF_VIEWER_FILES.worker].map((url) => new URL(url, location.href).href);
  void container.ready.then((registration) => registration.active?.postMessage({ type: 'hearth:cache-viewer', urls })).catch(() => undefined);
}
