/*
 * Zod compiles object parsers with `new Function` where it may, and finds out by trying once, when
 * its first object schema is built. Under the app's CSP (no 'unsafe-eval') that try is refused and
 * reported as a violation on every start: noise that would hide a real one. In the browser it is off
 * (parsers run interpreted: ample for the app's sizes); the server keeps the compiled parsers.
 *
 * Zod reads globalThis.__zod_globalConfig when it loads, so this runs before any module: a classic
 * script in index.html's head (module scripts, zod among their imports, run after the document is
 * parsed). Same origin, so the CSP's script-src 'self' allows it; precached with the app.
 */
globalThis.__zod_globalConfig = Object.assign({}, globalThis.__zod_globalConfig, { jitless: true });
