import { useState, type KeyboardEvent } from 'react';

const ZOOMS = [1, 1.5, 2, 3, 4] as const;

/**
 * A picture with zoom: buttons, and + / - / 0 while the picture has focus (its box scrolls with the
 * arrow keys when zoomed in). Pinching zooms the page where the browser allows it (the box lets
 * touch pans and pinches through).
 */
export function ImageViewer({ url, alt }: { url: string; alt: string }) {
  const [step, setStep] = useState(0);
  const zoom = ZOOMS[step] ?? 1;
  const zoomIn = () => setStep((s) => Math.min(ZOOMS.length - 1, s + 1));
  const zoomOut = () => setStep((s) => Math.max(0, s - 1));
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === '+' || event.key === '=') zoomIn();
    else if (event.key === '-' || event.key === '_') zoomOut();
    else if (event.key === '0') setStep(0);
    else return;
    event.preventDefault();
  };
  return (
    <div className="doc-image">
      <div className="viewer-toolbar" role="group" aria-label="Zoom">
        <button type="button" className="button button--secondary" onClick={zoomOut} aria-disabled={step === 0 || undefined}>
          Zoom out
        </button>
        <span className="viewer-toolbar__value" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <button type="button" className="button button--secondary" onClick={zoomIn} aria-disabled={step === ZOOMS.length - 1 || undefined}>
          Zoom in
        </button>
        <button type="button" className="button button--ghost" onClick={() => setStep(0)}>
          Fit
        </button>
      </div>
      <div className="doc-image__frame" tabIndex={0} role="group" aria-label={`${alt}, picture. Use plus and minus to zoom.`} onKeyDown={onKeyDown}>
        <img src={url} alt={alt} className="doc-image__img" style={{ width: `${zoom * 100}%` }} draggable={false} />
      </div>
    </div>
  );
}
