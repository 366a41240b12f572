import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue 8 §3: each side is type-checked for the runtime it runs in (tsconfig.json: DOM,
// tsconfig.sw.json: WebWorker, tsconfig.server.json: Node). A probe file compiled with a config's
// own options must fail on the other runtime's globals, or the configs have drifted back together.
function errorsFor(config: string, code: string): string[] {
  const read = ts.readConfigFile(config, (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(read.config, ts.sys, process.cwd());
  const fileName = `${process.cwd()}/__type-fence-probe.ts`;
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (path) => (path === fileName ? code : readFile(path));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (path) => path === fileName || fileExists(path);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const probes: Array<[string, string, string, RegExp]> = [
  ['the PWA using a Node global', 'tsconfig.json', 'export const x = process.env.X;', /Cannot find name 'process'/],
  ['the server using the DOM', 'tsconfig.server.json', 'export const x = document.title;', /Cannot find name 'document'/],
  ['the worker using the DOM', 'tsconfig.sw.json', 'export const x = document.title;', /Cannot find name 'document'/],
  ['the worker using a Node global', 'tsconfig.sw.json', 'export const x = Buffer.from("a");', /Cannot find name 'Buffer'/],
];

describe('type fences (one tsconfig per runtime)', () => {
  it.each(probes)('rejects %s', (_name, config, code, message) => {
    expect(errorsFor(config, code).join('\n')).toMatch(message);
  });

  it.each([
    ['tsconfig.json', 'export const x = document.title;'],
    ['tsconfig.server.json', 'export const x = process.env.X;'],
    ['tsconfig.sw.json', 'export const x = (self as unknown as ServiceWorkerGlobalScope).registration;'],
  ])('accepts its own runtime in %s', (config, code) => {
    expect(errorsFor(config, code)).toEqual([]);
  });
});
