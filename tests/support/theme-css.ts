import { readFileSync } from 'node:fs';

/**
 * Reads the custom properties of src/app/styles/themes.css per selector, and works out what each
 * variable is for one combination of the two theme settings (data-theme × data-kids-style), the way
 * the cascade does: specificity first (:root 0,1,0 and [data-theme] 0,1,0 by source order; the
 * gaming blocks 0,2,0 and 0,3,0 after them), then `var()` references resolved.
 */
export const THEMES_CSS = 'src/app/styles/themes.css';
export const SETTINGS_THEMES = ['fun', 'metro', 'none'] as const;
export const KIDS_STYLES = ['fun', 'gaming'] as const;
export type SettingsTheme = (typeof SETTINGS_THEMES)[number];
export type KidsStyleAttr = (typeof KIDS_STYLES)[number];

interface Block {
  selectors: string[];
  vars: Map<string, string>;
}

function stripComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, '');
}

export function themeBlocks(css = readFileSync(THEMES_CSS, 'utf8')): Block[] {
  const blocks: Block[] = [];
  for (const match of stripComments(css).matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selectors = (match[1] ?? '').split(',').map((s) => s.trim().replace(/"/g, "'"));
    const vars = new Map<string, string>();
    for (const declaration of (match[2] ?? '').split(';')) {
      const found = /^\s*(--[\w-]+)\s*:\s*([\s\S]+?)\s*$/.exec(declaration);
      if (found) vars.set(found[1]!, found[2]!.replace(/\s+/g, ' '));
    }
    if (vars.size > 0) blocks.push({ selectors, vars });
  }
  return blocks;
}

/** Does a variable block's selector match <html data-theme=theme data-kids-style=style>, and how specific is it? */
function specificity(selector: string, theme: SettingsTheme, style: KidsStyleAttr): number | null {
  const attributes = [...selector.matchAll(/\[data-([\w-]+)='([\w-]+)'\]/g)].map(([, name, value]) => [name, value] as const);
  const rest = selector.replace(/\[data-[\w-]+='[\w-]+'\]/g, '');
  if (rest !== '' && rest !== ':root') return null; // component rules, not variable blocks
  for (const [name, value] of attributes) {
    if (name === 'theme' && value !== theme) return null;
    if (name === 'kids-style' && value !== style) return null;
    if (name !== 'theme' && name !== 'kids-style') return null;
  }
  return attributes.length + (rest === ':root' ? 1 : 0);
}

/** Every variable's resolved value for one combination. */
export function themeVariables(theme: SettingsTheme, style: KidsStyleAttr, blocks = themeBlocks()): Map<string, string> {
  const matching = blocks
    .map((block, index) => ({ block, index, weight: Math.max(-1, ...block.selectors.map((s) => specificity(s, theme, style) ?? -1)) }))
    .filter((b) => b.weight >= 0)
    .sort((a, b) => a.weight - b.weight || a.index - b.index);
  const raw = new Map<string, string>();
  for (const { block } of matching) for (const [name, value] of block.vars) raw.set(name, value);
  const resolve = (value: string, depth = 0): string =>
    depth > 10 ? value : value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => resolve(raw.get(name) ?? '', depth + 1));
  return new Map([...raw].map(([name, value]) => [name, resolve(value)]));
}

/** WCAG 2.2 contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const h = /^#([0-9a-f]{6})$/i.exec(hex.trim())?.[1];
    if (!h) throw new Error(`Not a #rrggbb colour: ${hex}`);
    const [r, g, bl] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}
