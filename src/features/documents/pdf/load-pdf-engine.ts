import type * as PdfEngine from './pdf-engine';

export type PdfEngineModule = typeof PdfEngine;

/** pdf.js, on demand (its own chunk: never in the first load). The one door to it. */
export const loadPdfEngine = (): Promise<PdfEngineModule> => import('./pdf-engine');
