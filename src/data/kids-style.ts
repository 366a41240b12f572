import type { KidsStyle } from '@/contract/residents';
import type { Account } from '@/contract/users';
import { local } from './create-store';

/**
 * SPEC §3's two theme settings, the kids_app half (docs/decisions.md "Themes (issue 11)"):
 * the account's kids_app theme (`user.themes[]`, `theme_type.system_name` kids_app) is the
 * palette and type of the whole app: fun_style (light, the default) or gaming_style (dark, neon).
 * The young person changes it from the Menu; the change is saved to their account through the
 * app settings (`kids_style`), so it follows them to every device.
 *
 * No zod here: main.tsx reads the remembered style before the first paint (entry chunk).
 */
export const KIDS_STYLE_NAMES = ['fun_style', 'gaming_style'] as const satisfies readonly KidsStyle[];
export const DEFAULT_KIDS_STYLE: KidsStyle = 'fun_style';

/** `<html data-kids-style>`: the attribute the CSS follows (src/app/styles/themes.css). */
export type KidsStyleAttribute = 'fun' | 'gaming';
export const kidsStyleAttribute = (style: KidsStyle): KidsStyleAttribute => (style === 'gaming_style' ? 'gaming' : 'fun');

export const isKidsStyle = (value: unknown): value is KidsStyle => (KIDS_STYLE_NAMES as readonly unknown[]).includes(value);

/** The account's kids_app theme, when it has a known one. */
export function accountKidsStyle(account: Account | null): KidsStyle | null {
  const theme = account?.user.themes.find((t) => t.theme_type.system_name === 'kids_app' && isKidsStyle(t.system_name));
  return theme ? theme.system_name : null;
}

/**
 * Which style shows, first that applies:
 * 1. nobody signed in: the default (the login screen is nobody's);
 * 2. the resident record's `app_settings.kids_style` in the replica: the newest copy of the
 *    account's style, and the young person's own choice at once (optimistic, while it waits in
 *    the outbox);
 * 3. what this device showed this person last (kept only while they are signed in): after a reload,
 *    until the replica's record is read, it is newer than the account copy from sign-in, which the
 *    replica hands back first (using that copy made a changed style flash back for a moment);
 * 4. the account's kids_app theme (GET /v1/auth/user, fetched at sign-in): the default, and what a
 *    fresh sign-in shows (nothing is remembered then: it is forgotten whenever nobody is signed in);
 * 5. the default, fun_style (SPEC §9 "Default theme: fun").
 */
export function resolveKidsStyle(input: {
  signedIn: boolean;
  replicated: unknown;
  account: KidsStyle | null;
  remembered: KidsStyle | null;
}): KidsStyle {
  if (!input.signedIn) return DEFAULT_KIDS_STYLE;
  if (isKidsStyle(input.replicated)) return input.replicated;
  return input.remembered ?? input.account ?? DEFAULT_KIDS_STYLE;
}

/**
 * The style shown to the signed-in person, remembered on the device only while they are signed in
 * (so a reload paints the right colours before the encrypted replica opens). Not personal: a look.
 */
export const KIDS_STYLE_KEY = 'hearth.kidsStyle';

export function rememberedKidsStyle(): KidsStyle | null {
  const value = local.read(KIDS_STYLE_KEY);
  return isKidsStyle(value) ? value : null;
}

export function rememberKidsStyle(style: KidsStyle): void {
  if (rememberedKidsStyle() !== style) local.write(KIDS_STYLE_KEY, style);
}

export function forgetKidsStyle(): void {
  local.remove(KIDS_STYLE_KEY);
}
