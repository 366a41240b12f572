/** Moves focus to the page's h1 (after a step change inside one page). */
export function focusHeading(): void {
  requestAnimationFrame(() => document.getElementById('main-heading')?.focus());
}
