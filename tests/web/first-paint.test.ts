/**
 * index.html's inline first-paint script (issue 13) decides, before the first paint, what src/main.tsx
 * and the stores decide after the app has loaded: the theme, the kids style, and whether the
 * prerendered login screen is the page (at / for nobody signed in). It also holds back a send of the
 * prerendered form. Here it runs against the same localStorage as the app's own code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const html = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
const script = /<script id="first-paint">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
const root = document.documentElement;

function runFirstPaint(): void {
  for (const name of ['data-theme', 'data-kids-style', 'data-login-shell', 'data-login-sent']) root.removeAttribute(name);
  root.dataset.theme = 'fun';
  root.dataset.kidsStyle = 'fun';
  new Function(script)();
}

/** What the app decides from the same storage (src/main.tsx, with freshly loaded stores). */
async function appDecides(path: string) {
  vi.resetModules();
  const { getSettings } = await import('@/data/settings-store');
  const { getSessionStub } = await import('@/data/session-store');
  const { kidsStyleAttribute, rememberedKidsStyle } = await import('@/data/kids-style');
  return {
    theme: getSettings().theme,
    kidsStyle: kidsStyleAttribute((getSessionStub() && rememberedKidsStyle()) || 'fun_style'),
    loginShell: path === '/' && getSessionStub() === null,
  };
}

const stub = {
  v: 1,
  user_id: '0192f0a0-0000-7000-8000-00000000aaaa',
  site: 'demo',
  user_type: { id: 1, system_name: 'young_person_user' },
  resident_id: null,
  home_id: null,
  flags: { journal_enabled: 1, voice_enabled: 1, rewards_enabled: 1 },
  mfa_configured: false,
  mfa_required: false,
};

const cases: { name: string; path: string; storage: Record<string, unknown> }[] = [
  { name: 'a first visit at /', path: '/', storage: {} },
  { name: 'a first visit at a signed-in address', path: '/dashboard', storage: {} },
  { name: 'the metro theme, signed out', path: '/', storage: { 'hearth.settings': { theme: 'metro', domain: null, region: 'United Kingdom', userSetDomain: false } } },
  { name: 'the plain theme', path: '/terms-and-conditions', storage: { 'hearth.settings': { theme: 'none' } } },
  { name: 'a theme the app does not know', path: '/', storage: { 'hearth.settings': { theme: 'neon' } } },
  { name: 'signed in, at /', path: '/', storage: { 'hearth.session': stub } },
  { name: 'signed in with the gaming style', path: '/journal/entries', storage: { 'hearth.session': stub, 'hearth.kidsStyle': 'gaming_style', 'hearth.settings': { theme: 'metro' } } },
  { name: 'a gaming style left behind, signed out', path: '/', storage: { 'hearth.kidsStyle': 'gaming_style' } },
];

/** What the script added to the head: the modules' preloads and the entry's tag. */
const removeModules = () => document.head.querySelectorAll('link[rel="modulepreload"], script[type="module"]').forEach((element) => element.remove());

afterEach(() => {
  localStorage.clear();
  window.history.replaceState({}, '', '/');
});

describe('the first-paint script', () => {
  it('is there', () => {
    expect(script).toContain('data-login-shell');
  });

  it.each(cases)('decides as the app does: $name', async ({ path, storage }) => {
    for (const [key, value] of Object.entries(storage)) localStorage.setItem(key, JSON.stringify(value));
    window.history.replaceState({}, '', path);
    runFirstPaint();
    const expected = await appDecides(path);
    expect({ theme: root.dataset.theme, kidsStyle: root.dataset.kidsStyle, loginShell: root.hasAttribute('data-login-shell') }).toEqual(expected);
  });

  it('unreadable storage: the defaults, and the login screen at /', async () => {
    localStorage.setItem('hearth.settings', '{not json');
    runFirstPaint();
    expect(root.dataset.theme).toBe('fun');
    expect(root.hasAttribute('data-login-shell')).toBe(true);
  });

  it('holds back a send of the prerendered form (no GET with the password) and marks it for the app', () => {
    runFirstPaint();
    const shell = document.createElement('div');
    shell.dataset.prerendered = 'login';
    shell.innerHTML = '<form><input name="password" value="secret"><button type="submit">Sign in</button></form>';
    document.body.append(shell);
    try {
      const event = new Event('submit', { bubbles: true, cancelable: true });
      shell.querySelector('form')!.dispatchEvent(event);
      expect(event.defaultPrevented).toBe(true);
      expect(root.hasAttribute('data-login-sent')).toBe(true);

      // The app's own forms are not its business.
      const other = document.createElement('form');
      document.body.append(other);
      const own = new Event('submit', { bubbles: true, cancelable: true });
      other.dispatchEvent(own);
      expect(own.defaultPrevented).toBe(false);
      other.remove();
    } finally {
      shell.remove();
    }
  });

  describe('under the prerendered login screen', () => {
    let frames: FrameRequestCallback[] = [];
    let paintListener: ((list: { getEntriesByName(name: string): unknown[] }) => void) | null = null;
    const tag = document.createElement('script');
    tag.dataset.entry = '/assets/index.js';
    const entryLoaded = () => document.head.querySelectorAll('script[type="module"]').length === 1;
    const nextFrame = () => frames.splice(0).forEach((frame) => frame(performance.now()));
    const paint = (name: string) => paintListener?.({ getEntriesByName: (wanted) => (wanted === name ? [{ name }] : []) });

    function withPaintTiming(supported: boolean): void {
      class FakeObserver {
        static supportedEntryTypes = supported ? ['paint', 'navigation'] : ['navigation'];
        constructor(listener: typeof paintListener) {
          paintListener = listener;
        }
        observe(options: { type: string; buffered: boolean }) {
          expect(options).toEqual({ type: 'paint', buffered: true });
        }
        disconnect() {
          paintListener = null;
        }
      }
      vi.stubGlobal('PerformanceObserver', FakeObserver);
    }

    beforeEach(() => {
      vi.useFakeTimers();
      frames = [];
      paintListener = null;
      vi.stubGlobal('requestAnimationFrame', (frame: FrameRequestCallback) => frames.push(frame));
      vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
      Object.defineProperty(document, 'currentScript', { configurable: true, get: () => tag });
    });

    afterEach(() => {
      removeModules();
      delete (document as { currentScript?: unknown }).currentScript;
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
      vi.useRealTimers();
    });

    it('starts the modules once the first contentful paint is reported, not at the first frame', () => {
      withPaintTiming(true);
      runFirstPaint();
      nextFrame();
      vi.advanceTimersByTime(0);
      expect(entryLoaded()).toBe(false);
      paint('first-paint');
      expect(entryLoaded()).toBe(false);
      paint('first-contentful-paint');
      expect(entryLoaded()).toBe(true);
      vi.advanceTimersByTime(1_000); // the fallback finds them started: nothing twice
      expect(document.head.querySelectorAll('script[type="module"]')).toHaveLength(1);
    });

    it('starts them 300 ms after the first frame when no paint is reported', () => {
      withPaintTiming(true);
      runFirstPaint();
      vi.advanceTimersByTime(1_000);
      expect(entryLoaded()).toBe(false); // no frame yet: the stylesheet is still on its way
      nextFrame();
      vi.advanceTimersByTime(299);
      expect(entryLoaded()).toBe(false);
      vi.advanceTimersByTime(1);
      expect(entryLoaded()).toBe(true);
    });

    it('without paint timing, starts them right after the first frame', () => {
      withPaintTiming(false);
      runFirstPaint();
      expect(paintListener).toBeNull();
      nextFrame();
      expect(entryLoaded()).toBe(false);
      vi.advanceTimersByTime(0);
      expect(entryLoaded()).toBe(true);
    });
  });

  it("starts the app's modules, and on a signed-in start the replica's chunks beside them", () => {
    const tag = document.createElement('script');
    tag.dataset.entry = '/assets/index.js';
    tag.dataset.preload = '/assets/start.js';
    tag.dataset.signedInPreload = '/assets/lifecycle.js /assets/replica.js';
    Object.defineProperty(document, 'currentScript', { configurable: true, get: () => tag });
    const loaded = () => ({
      preloads: [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname),
      entry: [...document.head.querySelectorAll<HTMLScriptElement>('script[type="module"]')].map((script) => new URL(script.src).pathname),
    });
    try {
      // Signed out, away from the login screen: the entry and its own preloads only.
      window.history.replaceState({}, '', '/terms-and-conditions');
      runFirstPaint();
      expect(loaded()).toEqual({ preloads: ['/assets/start.js'], entry: ['/assets/index.js'] });
      removeModules();

      localStorage.setItem('hearth.session', JSON.stringify(stub));
      window.history.replaceState({}, '', '/journal/entries');
      runFirstPaint();
      expect(loaded()).toEqual({ preloads: ['/assets/start.js', '/assets/lifecycle.js', '/assets/replica.js'], entry: ['/assets/index.js'] });
    } finally {
      removeModules();
      delete (document as { currentScript?: unknown }).currentScript;
    }
  });
});
