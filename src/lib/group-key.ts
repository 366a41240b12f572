/** An authenticator key in groups of four, easier to type: `JBSW Y3DP EHPK 3PXP`. */
export function groupKey(secret: string, size = 4): string {
  return (secret.replace(/\s+/g, '').match(new RegExp(`.{1,${size}}`, 'g')) ?? []).join(' ');
}
