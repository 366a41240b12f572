/**
 * One base64 codec for the PWA, the service worker and Node 20, on Uint8Array (no Buffer): all
 * three have `btoa`/`atob`. Decoding follows `atob` (the "forgiving" WHATWG rules): ASCII
 * whitespace is ignored, padding may be left out, anything else throws (a DOMException), which
 * callers such as the field cipher turn into their own "malformed" error.
 */

// `apply` on chunks of the typed array, not a spread: the spread goes through the iterator and
// cost ~17 µs per 600-byte record (measured for the field cipher), and one call with a huge
// argument list would overflow the stack.
const CHUNK = 0x8000;

function toBinary(bytes: Uint8Array): string {
  if (bytes.length <= CHUNK) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return binary;
}

/** Standard base64 (`+`, `/`, `=` padding). */
export function bytesToBase64(bytes: Uint8Array): string {
  return btoa(toBinary(bytes));
}

/** Standard base64 to bytes. Throws on characters outside the alphabet (see the module note). */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** base64url (RFC 4648 §5: `-`, `_`, no padding), as Web Push keys and the server's tokens use. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * base64url to bytes; padding is optional. Also accepts standard base64 (the two alphabets do not
 * clash), as the copy in the push opt-in did. Throws like `base64ToBytes`.
 */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  return base64ToBytes(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
}
