/**
 * What kind of device and display this is, for the install offers (issue 10). Pure: callers pass
 * what the browser says, so tests can be any device.
 */

export interface DeviceFacts {
  readonly userAgent: string;
  readonly platform?: string;
  readonly maxTouchPoints?: number;
}

/**
 * iPhone, iPod or iPad (iPadOS 13+ says "Macintosh" like a Mac, but a Mac has no touch screen). Every
 * browser there is WebKit, and web push reaches only a web app added to the Home Screen (iOS 16.4+).
 */
export function isIosDevice({ userAgent, platform = '', maxTouchPoints = 0 }: DeviceFacts): boolean {
  if (/\b(iPhone|iPod|iPad)\b/.test(userAgent)) return true;
  return (platform === 'MacIntel' || /\bMacintosh\b/.test(userAgent)) && maxTouchPoints > 1;
}

/** Running as an installed app (its own window), not in a browser tab. */
export function isStandaloneDisplay(matchMedia: ((query: string) => { matches: boolean }) | undefined, navigatorStandalone: unknown): boolean {
  if (navigatorStandalone === true) return true; // iOS Home Screen apps
  if (typeof matchMedia !== 'function') return false;
  return ['standalone', 'fullscreen', 'minimal-ui', 'window-controls-overlay'].some((mode) => matchMedia(`(display-mode: ${mode})`).matches);
}

/** This browser, now (false where there is no window). */
export function currentDevice(): { ios: boolean; standalone: boolean } {
  if (typeof navigator === 'undefined' || typeof window === 'undefined') return { ios: false, standalone: false };
  const facts: DeviceFacts = { userAgent: navigator.userAgent, platform: navigator.platform, maxTouchPoints: navigator.maxTouchPoints };
  const match = typeof window.matchMedia === 'function' ? (query: string) => window.matchMedia(query) : undefined;
  return { ios: isIosDevice(facts), standalone: isStandaloneDisplay(match, (navigator as { standalone?: unknown }).standalone) };
}
