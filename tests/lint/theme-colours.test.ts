import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEMES_CSS } from '../support/theme-css';

/**
 * Every screen follows both theme settings only if no stylesheet paints a colour of its own: colours
 * live in src/app/styles/themes.css as custom properties; everything else says var(--…). A light
 * colour written into a component would break gaming_style's dark surfaces (docs/decisions.md
 * "Themes (issue 11)"). Content colours (journal papers, drawing inks, form swatches) live in
 * TypeScript as data and are drawn on --paper, not here.
 */
const COLOUR_LITERAL = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/gi;
const NAMED_COLOUR = /(?<![\w-])(?:white|black|red|green|blue|yellow|orange|purple|pink|gray|grey|silver|navy|teal|maroon|olive|lime|aqua|fuchsia)(?![\w-])/gi;

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** Colour literals in declarations (comments removed), as `file:line: text`. */
function colourLiterals(file: string, css: string): string[] {
  const found: string[] = [];
  const lines = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).split('\n');
  lines.forEach((line, index) => {
    const value = line.includes(':') ? line.slice(line.indexOf(':') + 1) : '';
    if (COLOUR_LITERAL.test(value) || NAMED_COLOUR.test(value)) found.push(`${file}:${index + 1}: ${line.trim()}`);
    COLOUR_LITERAL.lastIndex = 0;
    NAMED_COLOUR.lastIndex = 0;
  });
  return found;
}

describe('stylesheets take their colours from the theme', () => {
  it('no colour literal in any stylesheet under src/ but themes.css', () => {
    const files = cssFiles('src').filter((file) => file.replaceAll('\\', '/') !== THEMES_CSS);
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((file) => colourLiterals(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the probe catches hex, functions and names, and lets variables, white-space and transparent through', () => {
    const probe = ['.a { color: #fff; }', '.b { background: rgb(0 0 0 / 50%); }', '.c { border: 1px solid white; }', '.d { color: var(--text); white-space: nowrap; }', '.e { background: transparent; }'].join('\n');
    expect(colourLiterals('probe.css', probe)).toEqual(['probe.css:1: .a { color: #fff; }', 'probe.css:2: .b { background: rgb(0 0 0 / 50%); }', 'probe.css:3: .c { border: 1px solid white; }']);
  });
});
