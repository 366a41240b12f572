import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A self-signed X.509 certificate for one host name, made in-process (no openssl, no package):
 * a P-256 key, ECDSA-SHA256, subject and issuer CN = the host, subjectAltName DNS = the host,
 * basicConstraints CA:TRUE, valid from an hour ago for a day. The test trusts it as its own CA
 * (`ca` of an https.Agent), so it is accepted for that host and nowhere else.
 * DER (X.690) is written by hand: a tag, a length, the contents.
 */
function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts);
const set = (...parts: Buffer[]) => tlv(0x31, ...parts);
const integer = (bytes: Buffer) => tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const boolean = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0]));
const octets = (bytes: Buffer) => tlv(0x04, bytes);
const bits = (bytes: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * a + b];
  for (const n of rest) {
    const encoded = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) encoded.unshift(0x80 | (v & 0x7f));
    bytes.push(...encoded);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const text = `${p(date.getUTCFullYear() % 100)}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

const pem = (label: string, der: Buffer) => `-----BEGIN ${label}-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

export function selfSignedCertificate(hostname: string): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const name = sequence(set(sequence(oid('2.5.4.3'), utf8(hostname))));
  const now = Date.now();
  const validity = sequence(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 24 * 3600_000)));
  const subjectAltName = sequence(oid('2.5.29.17'), octets(sequence(tlv(0x82, Buffer.from(hostname, 'ascii')))));
  const basicConstraints = sequence(oid('2.5.29.19'), boolean(true), octets(sequence(boolean(true))));
  const serial = randomBytes(8);
  serial[0] = serial[0]! & 0x7f;
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    name,
    validity,
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(subjectAltName, basicConstraints)),
  );
  const certificate = sequence(tbs, ecdsaWithSha256, bits(sign('sha256', tbs, privateKey)));
  return { cert: pem('CERTIFICATE', certificate), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
