import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { LoadingText } from '@/components/loading-text';
import { keepViewerCode } from '@/data/documents/viewer-code';
import { loadPdfEngine, type PdfEngineModule } from '../pdf/load-pdf-engine';
import { blobBytes } from '../read-blob';
import type { PdfHandle } from '../pdf/pdf-engine';

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;
const FIT = 2; // index of 1 (fit the width)
/** Device pixels per CSS pixel, at most: a sharp page without a huge canvas on a phone. */
const MAX_PIXEL_RATIO = 2;

type Engine = PdfEngineModule;

/**
 * A PDF, one page at a time, drawn by pdf.js (loaded with this component, in its own chunk) on a
 * canvas with the page's text over it (transparent, selectable, read by screen readers). Previous
 * and next page, zoom (the width of the screen is 100%); keys while the page has focus: Page Up /
 * Page Down (and the left and right arrows when the page fits), Home, End, + and -.
 */
export function PdfViewer({ blob, title }: { blob: Blob; title: string }) {
  const [engine, setEngine] = useState<{ api: Engine; pdf: PdfHandle } | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [step, setStep] = useState(FIT);
  const [width, setWidth] = useState(0);
  const [pageWidth, setPageWidth] = useState<number | null>(null);
  const [rendered, setRendered] = useState<number | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const textLayer = useRef<HTMLDivElement>(null);

  // Open the bytes with pdf.js; and keep the engine for offline use from now on.
  useEffect(() => {
    let live = true;
    let pdf: PdfHandle | null = null;
    void (async () => {
      try {
        const api = await loadPdfEngine();
        keepViewerCode();
        pdf = await api.openPdf(await blobBytes(blob));
        if (live) setEngine({ api, pdf });
        else void pdf.destroy();
      } catch (error) {
        console.error('The PDF could not be opened', error);
        if (live) setFailed(true);
      }
    })();
    return () => {
      live = false;
      void pdf?.destroy();
    };
  }, [blob]);

  // The width the page fits into (the frame follows the screen: a phone turned, a window resized).
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [engine]);

  useEffect(() => {
    if (!engine) return;
    let live = true;
    void engine.pdf.pageSize(page).then((size) => {
      if (live) setPageWidth(size.width);
    });
    return () => {
      live = false;
    };
  }, [engine, page]);

  const zoom = ZOOMS[step] ?? 1;
  // Before the frame has a width (or where there is no layout), the page's own width is "fit".
  const available = width > 0 ? width : (pageWidth ?? 0);
  const scale = pageWidth && available ? (Math.max(200, available - 2) / pageWidth) * zoom : null;

  useEffect(() => {
    if (!engine || !scale || !canvas.current || !textLayer.current) return;
    const ratio = Math.min(MAX_PIXEL_RATIO, typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1);
    engine.pdf
      .render(page, { canvas: canvas.current, textLayer: textLayer.current, scale, pixelRatio: ratio })
      .then(() => setRendered(page))
      .catch((error: unknown) => {
        if (!engine.api.isRenderCancelled(error)) console.error('A PDF page could not be drawn', error);
      });
  }, [engine, page, scale]);

  const count = engine?.pdf.pageCount ?? 0;
  const go = useCallback((next: number) => setPage((current) => (count ? Math.min(count, Math.max(1, next)) : current)), [count]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const element = frame.current;
    const fits = !element || element.scrollWidth <= element.clientWidth + 1;
    switch (event.key) {
      case 'PageDown':
        go(page + 1);
        break;
      case 'PageUp':
        go(page - 1);
        break;
      case 'ArrowRight':
        if (!fits) return;
        go(page + 1);
        break;
      case 'ArrowLeft':
        if (!fits) return;
        go(page - 1);
        break;
      case 'Home':
        go(1);
        break;
      case 'End':
        go(count);
        break;
      case '+':
      case '=':
        setStep((s) => Math.min(ZOOMS.length - 1, s + 1));
        break;
      case '-':
      case '_':
        setStep((s) => Math.max(0, s - 1));
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  if (failed) return <p role="alert">This PDF could not be opened on this device.</p>;

  return (
    <div className="pdf-viewer">
      <div className="viewer-toolbar" role="group" aria-label="Pages and zoom">
        <button type="button" className="button button--secondary" onClick={() => go(page - 1)} aria-disabled={page <= 1 || undefined}>
          Previous page
        </button>
        <span className="viewer-toolbar__value" aria-live="polite">
          {count ? `Page ${page} of ${count}` : 'Opening…'}
        </span>
        <button type="button" className="button button--secondary" onClick={() => go(page + 1)} aria-disabled={!count || page >= count || undefined}>
          Next page
        </button>
        <span className="viewer-toolbar__gap" aria-hidden="true" />
        <button type="button" className="button button--secondary" onClick={() => setStep((s) => Math.max(0, s - 1))} aria-disabled={step === 0 || undefined}>
          Zoom out
        </button>
        <span className="viewer-toolbar__value" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <button type="button" className="button button--secondary" onClick={() => setStep((s) => Math.min(ZOOMS.length - 1, s + 1))} aria-disabled={step === ZOOMS.length - 1 || undefined}>
          Zoom in
        </button>
        <button type="button" className="button button--ghost" onClick={() => setStep(FIT)}>
          Fit width
        </button>
      </div>
      {!engine ? <LoadingText /> : null}
      <div
        ref={frame}
        className="pdf-viewer__frame"
        tabIndex={0}
        role="region"
        aria-label={`${title}, page ${page}${count ? ` of ${count}` : ''}`}
        aria-busy={rendered !== page || undefined}
        onKeyDown={onKeyDown}
      >
        <div className="pdf-viewer__page">
          <canvas ref={canvas} className="pdf-viewer__canvas" aria-hidden="true" />
          <div ref={textLayer} className="pdf-viewer__text textLayer" data-testid="pdf-text" />
        </div>
      </div>
    </div>
  );
}
