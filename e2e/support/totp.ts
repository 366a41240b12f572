import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { TOTP } from 'otpauth';

const PERIOD = 30;
// Beside the run's database (playwright.config.ts), which starts afresh with each run.
const DATA_DIR = `.e2e-data-${process.env.E2E_PORT ?? 8181}`;
const LEDGER = `${DATA_DIR}/totp-steps.json`;

/**
 * The server refuses a code whose time step was already used (no reuse), and projects sign the
 * same person in one after the other. So each code comes from a step not used before: the
 * current one, or the next (the server accepts one step of drift), waiting when both are spent.
 */
export async function freshTotpCode(secret: string): Promise<string> {
  const ledger = readLedger();
  const last = ledger[secret] ?? -1;
  let now = Math.floor(Date.now() / 1000 / PERIOD);
  while (last + 1 > now + 1) {
    await new Promise((r) => setTimeout(r, 1000));
    now = Math.floor(Date.now() / 1000 / PERIOD);
  }
  const step = Math.max(now, last + 1);
  ledger[secret] = step;
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(LEDGER, JSON.stringify(ledger));
  const totp = new TOTP({ secret, digits: 6, period: PERIOD, algorithm: 'SHA1' });
  return totp.generate({ timestamp: step * PERIOD * 1000 });
}

function readLedger(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(LEDGER, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
