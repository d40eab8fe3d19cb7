import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core (from npm) run inside the page: the dashboard's accessibility
 * check. The source is evaluated through the DevTools protocol, as a
 * console would, which the page's Content-Security-Policy does not govern
 * (a script tag or eval in the page would be refused): the policy under
 * test stays the real one.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The serious and critical violations axe finds in the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => Boolean((globalThis as any).axe)))) {
    const session = await page.context().newCDPSession(page);
    try {
      const loaded = await session.send('Runtime.evaluate', { expression: axeSource });
      if (loaded.exceptionDetails) throw new Error(`axe-core did not load: ${loaded.exceptionDetails.text}`);
    } finally {
      await session.detach();
    }
  }
  return page.evaluate(async () => {
    const scope = globalThis as any;
    const results = await scope.axe.run(scope.document, { resultTypes: ['violations'] });
    return results.violations
      .filter((violation: any) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation: any) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node: any) => node.target.join(' ')),
      }));
  });
}

/** Fails with each violation's rule, help text and elements, so the message says what to fix. */
export async function assertAccessible(page: Page, view: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(
    violations.map(
      (violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.targets.join(', ')}`,
    ),
    [],
    `axe found serious or critical violations on the ${view} view`,
  );
}
