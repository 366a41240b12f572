import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Which push services the server will call (issue 10; issue 12 finding 6). A browser's push
 * subscription names an endpoint URL that the server later POSTs to: without a check, anyone
 * signed in could make the server call any address, inside the network included. So:
 * - an endpoint must be `https:` on a host of PUSH_SERVICE_HOSTS (config.ts): `name` is that host
 *   exactly, `*.name` any host below it (suffix on a dot boundary: `*.push.apple.com` takes
 *   `web.push.apple.com`, never `evilpush.apple.com` or `push.apple.com` itself); `name:port` also
 *   allows that one port (without it only the default, 443);
 * - whatever the list says, never an IP literal in any notation (the URL parser has already turned
 *   `0x7f.1`, `2130706433` or `017700000001` into `127.0.0.1`), `localhost`, user info in the URL,
 *   or a trailing dot;
 * - and when connecting, the name must resolve to public addresses only (publicOnlyLookup), so a
 *   DNS answer that points an allowed name inside the network is refused too.
 */
export interface PushHostRule {
  /** The host (lower case) or, for a wildcard, the domain below which any host is allowed. */
  domain: string;
  wildcard: boolean;
  /** An explicit port, or null for the default (443) only. */
  port: number | null;
}

/** The browsers' push services: Chrome/Edge (FCM), Firefox (Mozilla autopush), Safari (Apple), Windows (WNS). */
export const DEFAULT_PUSH_SERVICE_HOSTS = 'fcm.googleapis.com,updates.push.services.mozilla.com,*.push.apple.com,web.push.apple.com,*.notify.windows.com';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** An IPv4 or IPv6 literal, bracketed or not (after URL parsing, which normalises every IPv4 notation). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) !== 0 || /^[0-9.]+$/.test(bare) || /^0x[0-9a-f.x]*$/i.test(bare);
}

/** One entry of PUSH_SERVICE_HOSTS, or the reason it is refused. */
export function parsePushHostRule(entry: string): PushHostRule | string {
  const text = entry.trim().toLowerCase();
  const match = /^(\*\.)?([^:]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return `"${entry}" is not a host name (name, *.name or name:port)`;
  const wildcard = Boolean(match[1]);
  const domain = match[2]!;
  const port = match[3] ? Number(match[3]) : null;
  if (port !== null && (port < 1 || port > 65535)) return `"${entry}": the port must be 1 to 65535`;
  if (isIpLiteral(domain)) return `"${entry}": IP addresses are not allowed, only host names`;
  if (isLocalName(domain)) return `"${entry}": localhost is not allowed`;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return `"${entry}" is not a host name with at least two labels`;
  return { domain, wildcard, port: port === 443 ? null : port };
}

/** The whole setting: a comma- or space-separated list; problems are reported one per entry. */
export function parsePushServiceHosts(text: string): { rules: PushHostRule[]; problems: string[] } {
  const rules: PushHostRule[] = [];
  const problems: string[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const rule = parsePushHostRule(entry);
    if (typeof rule === 'string') problems.push(rule);
    else rules.push(rule);
  }
  if (rules.length === 0 && problems.length === 0) problems.push('must name at least one push service host');
  return { rules, problems };
}

/** Null when the server may send to this endpoint, else why not (for the log; the API says endpointNotAllowed). */
export function pushEndpointProblem(endpoint: string, rules: readonly PushHostRule[]): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:') return 'not https';
  if (url.username || url.password) return 'user info in the URL';
  const host = url.hostname;
  if (isIpLiteral(host)) return 'an IP address';
  if (isLocalName(host) || host.endsWith('.') || !host.includes('.')) return 'not a public host name';
  const port = url.port === '' ? null : Number(url.port);
  const allowed = rules.some((rule) => {
    const hostMatches = rule.wildcard ? host.endsWith(`.${rule.domain}`) : host === rule.domain;
    return hostMatches && port === rule.port;
  });
  return allowed ? null : 'not an allowed push service';
}

/** Addresses no push service lives at: loopback, private, link-local, shared, documentation, multicast, reserved. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** A public unicast address (IPv4-mapped IPv6 addresses are judged by their IPv4 part). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/i.test(address)) return false;
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the push sender's https agent: resolves as usual and keeps only public addresses;
 * none left is an error (code EPUSHPRIVATE), so the connection is never made.
 */
export function publicOnlyLookup(hostname: string, options: { family?: number | string; all?: boolean; hints?: number } | undefined, callback: LookupCallback): void {
  const family = options?.family === 'IPv4' ? 4 : options?.family === 'IPv6' ? 6 : typeof options?.family === 'number' ? options.family : 0;
  const all: LookupAllOptions = { all: true, family, ...(options?.hints !== undefined ? { hints: options.hints } : {}) };
  dnsLookup(hostname, all, (error, addresses) => {
    if (error) return callback(error, []);
    const usable = addresses.filter((a) => isPublicAddress(a.address));
    if (usable.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(`push: ${hostname} does not resolve to a public address`);
      refused.code = 'EPUSHPRIVATE';
      return callback(refused, []);
    }
    if (options?.all) return callback(null, usable);
    return callback(null, usable[0]!.address, usable[0]!.family);
  });
}
