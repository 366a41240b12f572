import { describe, expect, it } from 'vitest';
import { contrast, KIDS_STYLES, SETTINGS_THEMES, themeBlocks, themeVariables } from '../support/theme-css';

/**
 * WCAG 2.2 AA for every combination of the two theme settings (docs/decisions.md "Themes (issue 11)"):
 * text 4.5:1 (1.4.3), controls' borders, focus rings and the header's focus 3:1 (1.4.11, 2.4.7/2.4.13).
 * Each pair is one the stylesheets really draw (base.css, shell.css, the features' CSS).
 */
const TEXT = 4.5;
const UI = 3;
const pairs: Array<[fg: string, bg: string, min: number]> = [
  ...['--bg', '--surface', '--surface-2', '--nav-bg', '--nav-active-bg'].map((bg): [string, string, number] => ['--text', bg, TEXT]),
  ...['--bg', '--surface', '--surface-2'].map((bg): [string, string, number] => ['--muted', bg, TEXT]),
  ...['--bg', '--surface', '--surface-2', '--nav-active-bg'].map((bg): [string, string, number] => ['--link', bg, TEXT]),
  // primary as text: secondary buttons, the current nav item, badges, today's heading.
  ...['--bg', '--surface', '--surface-2', '--nav-bg', '--nav-active-bg'].map((bg): [string, string, number] => ['--primary', bg, TEXT]),
  ['--on-primary', '--primary', TEXT],
  ['--on-primary', '--primary-hover', TEXT],
  ...['--bg', '--surface', '--error-bg'].map((bg): [string, string, number] => ['--error', bg, TEXT]),
  ['--text', '--error-bg', TEXT],
  ['--toast-text', '--success-bg', TEXT],
  ['--toast-text', '--error-toast-bg', TEXT],
  ['--header-text', '--header-bg', TEXT],
  ['--header-focus', '--header-bg', UI],
  ['--offline-text', '--offline-bg', TEXT],
  ['--paper-ink', '--paper', TEXT],
  ['--on-media-stage', '--media-stage', TEXT],
  ['--on-media-stage', '--media-stage-2', TEXT],
  ...['--bg', '--surface', '--surface-2'].map((bg): [string, string, number] => ['--focus', bg, UI]),
  ...['--bg', '--surface'].map((bg): [string, string, number] => ['--border', bg, UI]),
  ...[1, 2, 3, 4, 5, 6].map((n): [string, string, number] => ['--tile-text', `--tile-${n}`, TEXT]),
];

describe('theme contrast (WCAG 2.2 AA)', () => {
  const blocks = themeBlocks();

  for (const theme of SETTINGS_THEMES) {
    for (const style of KIDS_STYLES) {
      it(`data-theme=${theme} data-kids-style=${style}`, () => {
        const vars = themeVariables(theme, style, blocks);
        const failures = pairs.flatMap(([fg, bg, min]) => {
          const ratio = contrast(vars.get(fg) ?? 'missing', vars.get(bg) ?? 'missing');
          return ratio >= min ? [] : [`${fg} ${vars.get(fg)} on ${bg} ${vars.get(bg)}: ${ratio.toFixed(2)} < ${min}`];
        });
        expect(failures).toEqual([]);
      });
    }
  }

  it('gaming is its own look: dark surfaces and a different palette from fun in every settings theme', () => {
    for (const theme of SETTINGS_THEMES) {
      const fun = themeVariables(theme, 'fun', blocks);
      const gaming = themeVariables(theme, 'gaming', blocks);
      expect(contrast(gaming.get('--bg')!, '#000000'), theme).toBeLessThan(1.5); // near black
      expect(contrast(fun.get('--bg')!, '#ffffff'), theme).toBeLessThan(1.2); // near white
      for (const name of ['--bg', '--surface', '--text', '--primary', '--link', '--focus']) expect(gaming.get(name), `${theme} ${name}`).not.toBe(fun.get(name));
      expect(gaming.get('--font-display'), theme).toMatch(/Bahnschrift/);
    }
  });

  it('the settings theme keeps its shapes under gaming (metro square, none undecorated)', () => {
    expect(themeVariables('metro', 'gaming', blocks).get('--radius')).toBe('0');
    expect(themeVariables('none', 'gaming', blocks).get('--shadow')).toBe('none');
    expect(themeVariables('fun', 'gaming', blocks).get('--radius')).not.toBe(themeVariables('fun', 'fun', blocks).get('--radius'));
  });
});
