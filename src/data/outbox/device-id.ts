import type { DataKey } from '../crypto/key-vault';

/**
 * This device's id for the server's edit-conflict rule (issue 12, docs/api.md "Edit conflicts"):
 * an opaque name for "the writes of this outbox", so the server can tell this device's changes in a
 * row (never a conflict with each other) from another device's. Derived from the person's data key
 * on this device (HMAC-SHA-256 over a fixed label, 128 bits in hex): stable across reloads and
 * restarts, gone with the key at sign-out together with every write that carried it, different on
 * every device and for every person, and nothing about the key can be learnt from it.
 */
const LABEL = 'hearth-device-id-v1';

const cache = new WeakMap<DataKey, Promise<string>>();

export function deviceIdOf(key: DataKey): Promise<string> {
  let id = cache.get(key);
  if (!id) {
    id = (async () => {
      const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(LABEL)));
      return Array.from(mac.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
    })();
    cache.set(key, id);
  }
  return id;
}
