import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LOG_REDACT_PATHS } from '../../server/app';

function logged(write: (log: pino.Logger) => void): Record<string, unknown> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  write(pino({ redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } }, sink));
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('finding 11: log redaction', () => {
  it("keeps an error's code (PostgreSQL's SQLSTATE), so a 500 can be diagnosed", () => {
    const line = logged((log) => log.error({ err: Object.assign(new Error('invalid byte sequence'), { code: '22021' }) }, 'request failed'));
    expect((line.err as { code: string }).code).toBe('22021');
  });

  it('hides passwords, two-factor codes, recovery codes, secrets and cookies', () => {
    const line = logged((log) =>
      log.info({ req: { headers: { cookie: 'hearth_session=abc' } }, body: { code: '123456', password: 'hearth-demo-1', recovery_code: 'abcde-12345' }, input: { code: '654321' }, user: { secret: 'JBSW' } }, 'x'),
    );
    const text = JSON.stringify(line);
    for (const secret of ['abc', '123456', 'hearth-demo-1', 'abcde-12345', '654321', 'JBSW']) expect(text).not.toContain(`"${secret}"`);
    expect(text).toContain('[redacted]');
  });
});
