import type { CSSProperties } from 'react';
import type { AppSettings } from '@/contract/residents';
import { JOURNAL_COLOURS, JOURNAL_PAPERS } from '@/contract/residents';
import './journal-surface.css';

export type JournalColour = (typeof JOURNAL_COLOURS)[number];
export type JournalPaper = (typeof JOURNAL_PAPERS)[number];

interface Palette {
  /** What the person reads next to the swatch. */
  name: string;
  /** The writing surface; ink (#1f1b24) on every one of these is above 12:1 (WCAG AA needs 4.5:1). */
  paper: string;
  /** Lines, squares and dots: decoration, never text. */
  rule: string;
  /** The swatch in the picker; it has a dark outline, so it stands out on any page colour. */
  swatch: string;
}

export const JOURNAL_INK = '#1f1b24';

export const JOURNAL_PALETTE: Readonly<Record<JournalColour, Palette>> = {
  sunshine: { name: 'Sunshine', paper: '#fff4c2', rule: '#d9b84a', swatch: '#ffd23f' },
  sky: { name: 'Sky', paper: '#dff0ff', rule: '#7fb2de', swatch: '#4aa3e8' },
  mint: { name: 'Mint', paper: '#ddf6ea', rule: '#6fbf98', swatch: '#3fbf86' },
  lavender: { name: 'Lavender', paper: '#ece3ff', rule: '#a48bd6', swatch: '#9b7bdc' },
  coral: { name: 'Coral', paper: '#ffe3dc', rule: '#e39a88', swatch: '#ff7a5c' },
  sand: { name: 'Sand', paper: '#f5ead7', rule: '#c3a97c', swatch: '#d9b98a' },
  slate: { name: 'Slate', paper: '#e3e8ee', rule: '#8e9bab', swatch: '#5b6b7f' },
};

export const JOURNAL_PAPER_NAMES: Readonly<Record<JournalPaper, string>> = {
  plain: 'Plain',
  lined: 'Lined',
  squared: 'Squared',
  dotted: 'Dotted',
};

const isColour = (value: unknown): value is JournalColour => (JOURNAL_COLOURS as readonly unknown[]).includes(value);
const isPaper = (value: unknown): value is JournalPaper => (JOURNAL_PAPERS as readonly unknown[]).includes(value);

/** A known colour and paper: an unknown value (a newer server, a refused write) reads as sunshine / plain. */
export function knownLook(settings: { journal_colour?: unknown; journal_paper?: unknown } | null | undefined): {
  journal_colour: JournalColour;
  journal_paper: JournalPaper;
} {
  return {
    journal_colour: isColour(settings?.journal_colour) ? settings.journal_colour : 'sunshine',
    journal_paper: isPaper(settings?.journal_paper) ? settings.journal_paper : 'plain',
  };
}

export interface JournalSurface {
  className: string;
  style: CSSProperties;
}

/**
 * How a journal writing surface looks with the person's settings: spread the result on the element
 * that holds what they write (`<div {...journalSurfaceStyle(settings)}>`). Unknown values fall back
 * to sunshine / plain (knownLook) rather than an unstyled page.
 */
export function journalSurfaceStyle(settings: Pick<AppSettings, 'journal_colour' | 'journal_paper'> | null | undefined): JournalSurface {
  const { journal_colour: colour, journal_paper: paper } = knownLook(settings);
  const palette = JOURNAL_PALETTE[colour];
  return {
    className: `journal-surface journal-surface--${paper} journal-surface--colour-${colour}`,
    style: {
      '--journal-paper': palette.paper,
      '--journal-rule': palette.rule,
      '--journal-ink': JOURNAL_INK,
    } as CSSProperties,
  };
}
