import { useEffect } from 'react';
import type { KidsStyle } from '@/contract/residents';
import { forgetKidsStyle, kidsStyleAttribute, rememberKidsStyle } from '@/data/kids-style';

/**
 * Puts the settings theme on `<html data-theme>`, the kids_app style on `<html data-kids-style>`, the browser's bars in the header colour of
 * the look now showing, and remembers the style while someone is signed in (forgets it otherwise).
 * How the two theme settings combine: src/app/styles/themes.css, docs/decisions.md "Themes (issue 11)".
 */
export function StyleSync({ style, signedIn, theme }: { style: KidsStyle; signedIn: boolean; theme: string }) {
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.dataset.kidsStyle = kidsStyleAttribute(style);
    if (signedIn) rememberKidsStyle(style);
    else forgetKidsStyle();
    // The header colour follows both settings. Read in the next frame, where the browser computes
    // the styles anyway: read here, it forced that work for the whole screen just committed, inside
    // the task of every screen's effects (issue 13).
    const frame = requestAnimationFrame(() => {
      const headerColour = getComputedStyle(root).getPropertyValue('--header-bg').trim();
      if (headerColour) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', headerColour);
    });
    return () => cancelAnimationFrame(frame);
  }, [style, signedIn, theme]);
  return null;
}
