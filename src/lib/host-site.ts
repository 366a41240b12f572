/**
 * The client site suggested by the host name (SPEC §7: "the first label of the current host"):
 * `oakhouse.hearth.example` → `oakhouse`. Localhost and IP addresses give no site.
 */
export function siteFromHostname(hostname: string): string | null {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (!host || host === 'localhost' || host.endsWith('.localhost')) return null;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null; // IPv4
  if (host.includes(':') || host.startsWith('[')) return null; // IPv6
  const labels = host.split('.');
  if (labels.length < 2) return null; // a bare machine name is not a site
  return labels[0] ?? null;
}
