/**
 * `npm run dev`: the real server in development mode (API on PORT+1, development mailbox on)
 * and Vite with hot reload on PORT, passing /api through to that server.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const port = Number(process.env.PORT ?? 8080);
const apiPort = port + 1;
const children: ChildProcess[] = [];

function run(command: string, args: string[], env: Record<string, string>): void {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    // When one half stops, stop the other: a dev server without its API is only confusing.
    for (const other of children) if (other !== child) other.kill('SIGTERM');
    process.exitCode = code ?? 0;
  });
  children.push(child);
}

run('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
  NODE_ENV: 'development',
  PORT: String(apiPort),
  HEARTH_DEV_PAGE_PORT: String(port),
});
run('npx', ['vite', '--port', String(port)], {
  PORT: String(port),
  HEARTH_API_ORIGIN: `http://127.0.0.1:${apiPort}`,
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => children.forEach((c) => c.kill(signal)));
}
