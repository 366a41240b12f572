import { local } from './create-store';

/**
 * The shape the signed-in screens had when they last showed their content, on this device and at
 * about this width: the heights of regions and whether a part was there at all
 * (src/components/use-held-layout.ts holds them while the replica opens again, so nothing moves
 * when the content arrives: issue 13). Numbers only, nothing of what was shown; forgotten at
 * sign-out with the person's other keys (src/data/sign-out.ts).
 */
export const HELD_LAYOUT_KEY = 'hearth.heldLayout';
const MAX_ENTRIES = 60;

let values: Record<string, number> | null = null;

function all(): Record<string, number> {
  if (values) return values;
  const stored = local.read(HELD_LAYOUT_KEY);
  values = {};
  if (stored && typeof stored === 'object') {
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) values[key] = value;
    }
  }
  return values;
}

/** The number on record for `key` (a height in pixels, or 1/0 for there/not there), if any. */
export function heldValue(key: string): number | null {
  return all()[key] ?? null;
}

export function holdValue(key: string, value: number): void {
  const current = all();
  const rounded = Math.round(value);
  if (current[key] === rounded) return;
  delete current[key]; // the newest last, so the oldest go first when there are too many
  current[key] = rounded;
  const keys = Object.keys(current);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete current[old];
  local.write(HELD_LAYOUT_KEY, current);
}

/** Sign-out and tests: forget them all. */
export function forgetHeldLayout(): void {
  values = null;
  local.remove(HELD_LAYOUT_KEY);
}
