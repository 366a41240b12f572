/**
 * The colour question's named swatches and words for any other colour. A colour is never shown
 * by its hue alone (WCAG 1.4.1): every swatch has a name and its code, and a colour picked from
 * the native picker is described in words too ("Dark green").
 */
export const COLOUR_SWATCHES = [
  { name: 'Red', hex: '#d20f39' },
  { name: 'Orange', hex: '#fe640b' },
  { name: 'Yellow', hex: '#df8e1d' },
  { name: 'Green', hex: '#40a02b' },
  { name: 'Teal', hex: '#179299' },
  { name: 'Blue', hex: '#1e66f5' },
  { name: 'Purple', hex: '#8839ef' },
  { name: 'Pink', hex: '#ea76cb' },
  { name: 'Brown', hex: '#8b5a2b' },
  { name: 'Grey', hex: '#7c7f93' },
  { name: 'Black', hex: '#1f1b24' },
  { name: 'White', hex: '#ffffff' },
] as const;

const HEX = /^#?([0-9a-f]{6})$/i;

/** '#rrggbb' (lower case) from '#RRGGBB', 'rrggbb' or with spaces around; null for anything else. */
export function parseHex(text: string): string | null {
  const match = HEX.exec(text.trim());
  return match ? `#${match[1]!.toLowerCase()}` : null;
}

const hueNames: readonly [number, string][] = [
  [15, 'Red'],
  [40, 'Orange'],
  [65, 'Yellow'],
  [165, 'Green'],
  [195, 'Teal'],
  [255, 'Blue'],
  [290, 'Purple'],
  [345, 'Pink'],
  [360, 'Red'],
];

/** A plain name for a '#rrggbb' colour: the swatch's name, or a light/dark hue name ("Dark green"). */
export function colourName(hex: string): string {
  const value = parseHex(hex);
  if (!value) return hex;
  const swatch = COLOUR_SWATCHES.find((s) => s.hex === value);
  if (swatch) return swatch.name;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(value.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const light = (max + min) / 2;
  const chroma = max - min;
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * light - 1));
  if (saturation < 0.15 || chroma < 0.08) {
    if (light < 0.15) return 'Black';
    if (light > 0.92) return 'White';
    return light < 0.4 ? 'Dark grey' : light > 0.7 ? 'Light grey' : 'Grey';
  }
  let hue = 0;
  if (max === r) hue = 60 * (((g - b) / chroma + 6) % 6);
  else if (max === g) hue = 60 * ((b - r) / chroma + 2);
  else hue = 60 * ((r - g) / chroma + 4);
  const base = hueNames.find(([limit]) => hue < limit)?.[1] ?? 'Red';
  if ((base === 'Orange' || base === 'Yellow') && light < 0.4) return 'Brown';
  if (light < 0.3) return `Dark ${base.toLowerCase()}`;
  if (light > 0.78) return `Light ${base.toLowerCase()}`;
  return base;
}
