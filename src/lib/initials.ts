/** One or two capital letters for an avatar fallback. */
export function initials(...names: (string | null | undefined)[]): string {
  return names
    .filter((n): n is string => Boolean(n && n.trim()))
    .map((n) => n.trim().charAt(0).toUpperCase())
    .slice(0, 2)
    .join('');
}
