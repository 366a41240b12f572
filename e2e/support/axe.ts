import { expect, type Page } from '@playwright/test';

/**
 * axe-core over the whole page, as e2e/voice.spec.ts and e2e/journal-thread-a11y.spec.ts run it.
 * axe is injected as a script tag, so the test needs `test.use({ bypassCSP: true })` (the app's CSP
 * is script-src 'self').
 */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; html: string }[];
}

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown; html: string }[] }[] };
    const result = await (window as unknown as { axe: { run(context: Document): Promise<Result> } }).axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), html: n.html })) }));
  });
}

export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe on ${screen}:\n${JSON.stringify(violations, null, 2)}`).toEqual([]);
}
