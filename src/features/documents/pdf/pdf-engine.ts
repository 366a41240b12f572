/**
 * pdf.js (pdfjs-dist 5) behind a small interface, for the PDF viewer (issue 11): a PDF shows the
 * same on every phone, tablet and computer, also where the browser has no PDF viewer of its own.
 *
 * This module is the only one that imports pdfjs-dist, and only the PDF viewer loads it, with a
 * dynamic import: pdf.js (~420 KB) and its worker (~1.2 MB) are in no route's chunk, not in the
 * entry and not in the precache. The service worker keeps them in a cache of their own once a PDF
 * is opened or kept (sw/sw.ts "viewer code"), so a kept PDF opens offline.
 *
 * Inside the app's CSP: the worker is a file of this origin (`worker-src 'self'`; Vite emits it from
 * the package, no blob: worker), `isEvalSupported: false` (no `new Function` for fonts), nothing is
 * fetched from elsewhere: no CMaps, standard fonts or wasm (PDFs that need them fall back to the
 * system's fonts; JPEG 2000 and JBIG2 pictures inside a PDF may not show).
 */
import type * as Pdfjs from 'pdfjs-dist';
import type { PDFDocumentProxy, TextLayer } from 'pdfjs-dist';
import { PDF_VIEWER_FILES } from '@/data/documents/viewer-files';

let loading: Promise<typeof Pdfjs> | null = null;

/** pdf.js itself, from its file on this origin (once per page). */
function pdfjs(): Promise<typeof Pdfjs> {
  loading ??= (import(/* @vite-ignore */ PDF_VIEWER_FILES.engine) as Promise<typeof Pdfjs>).then((module) => {
    module.GlobalWorkerOptions.workerSrc = PDF_VIEWER_FILES.worker;
    return module;
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

export interface PdfSize {
  readonly width: number;
  readonly height: number;
}

export interface PdfRenderTarget {
  readonly canvas: HTMLCanvasElement;
  /** Receives the page's text as positioned, transparent, selectable text over the picture (what screen readers read). */
  readonly textLayer: HTMLElement;
  /** CSS pixels per PDF point. */
  readonly scale: number;
  /** Device pixels per CSS pixel (capped by the caller). */
  readonly pixelRatio: number;
}

export interface PdfHandle {
  readonly pageCount: number;
  /** The page's size in PDF points (scale 1). */
  pageSize(pageNumber: number): Promise<PdfSize>;
  /** Draws the page and its text layer; resolves with its size in CSS pixels. A newer render of the same target cancels this one. */
  render(pageNumber: number, target: PdfRenderTarget): Promise<PdfSize>;
  destroy(): Promise<void>;
}

class RenderCancelled extends Error {
  override readonly name = 'RenderCancelled';
}
export const isRenderCancelled = (error: unknown): boolean =>
  error instanceof RenderCancelled || (error instanceof Error && error.name === 'RenderingCancelledException');

export async function openPdf(bytes: Uint8Array): Promise<PdfHandle> {
  const { getDocument, TextLayer: TextLayerClass } = await pdfjs();
  const task = getDocument({
    data: bytes,
    isEvalSupported: false,
    enableXfa: false,
    useSystemFonts: true,
    useWasm: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
  });
  const doc: PDFDocumentProxy = await task.promise;
  const running = new WeakMap<HTMLCanvasElement, { cancel(): void }>();

  return {
    pageCount: doc.numPages,
    async pageSize(pageNumber) {
      const page = await doc.getPage(pageNumber);
      const viewport = page.getViewport({ scale: 1 });
      return { width: viewport.width, height: viewport.height };
    },
    async render(pageNumber, { canvas, textLayer, scale, pixelRatio }) {
      running.get(canvas)?.cancel();
      let cancelled = false;
      let renderTask: { cancel(): void } | null = null;
      let text: TextLayer | null = null;
      running.set(canvas, {
        cancel() {
          cancelled = true;
          renderTask?.cancel();
          text?.cancel();
        },
      });
      const page = await doc.getPage(pageNumber);
      if (cancelled) throw new RenderCancelled();
      const viewport = page.getViewport({ scale });
      canvas.width = Math.max(1, Math.floor(viewport.width * pixelRatio));
      canvas.height = Math.max(1, Math.floor(viewport.height * pixelRatio));
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const drawing = page.render({ canvas, viewport, transform: pixelRatio !== 1 ? [pixelRatio, 0, 0, pixelRatio, 0, 0] : undefined });
      renderTask = drawing;
      await drawing.promise;
      if (cancelled) throw new RenderCancelled();
      textLayer.replaceChildren();
      textLayer.style.setProperty('--scale-factor', String(scale));
      textLayer.style.setProperty('--total-scale-factor', String(scale));
      text = new TextLayerClass({ textContentSource: page.streamTextContent(), container: textLayer, viewport });
      await text.render();
      if (cancelled) throw new RenderCancelled();
      return { width: viewport.width, height: viewport.height };
    },
    destroy: () => task.destroy(),
  };
}
