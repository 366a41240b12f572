import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '@/contract/base64';
import {
  CIPHERTEXT_PREFIX,
  DecryptError,
  DOCUMENT_CIPHERTEXT_PREFIX,
  decryptField,
  documentAssociatedData,
  documentErrorContext,
  encryptField,
  isCiphertext,
  openDocumentJson,
  sealDocumentJson,
} from '@/data/crypto/field-cipher';
import { asDataKey } from '@/data/crypto/key-vault';

const key = asDataKey(crypto.getRandomValues(new Uint8Array(32)));
const otherKey = asDataKey(crypto.getRandomValues(new Uint8Array(32)));
const ctx = { collection: 'journal', documentId: 'doc-1', field: 'description' };

function expectDecryptError(fn: () => unknown, code: DecryptError['code']) {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DecryptError);
  expect((caught as DecryptError).code).toBe(code);
}

describe('field cipher', () => {
  it('round-trips any JSON value', () => {
    const values = ['Today I felt 😊', '', 0, 42.5, true, null, [1, 'two', { three: 3 }], { nested: { deep: ['x'] } }];
    for (const value of values) {
      const ciphertext = encryptField(key, value, ctx);
      expect(isCiphertext(ciphertext)).toBe(true);
      expect(ciphertext.startsWith(CIPHERTEXT_PREFIX)).toBe(true);
      expect(decryptField(key, ciphertext, ctx)).toEqual(value);
    }
  });

  it('hides the plaintext and uses a fresh nonce every time', () => {
    const a = encryptField(key, 'secret canary', ctx);
    const b = encryptField(key, 'secret canary', ctx);
    expect(a).not.toBe(b);
    expect(a).not.toContain('canary');
    expect(atob(a.slice(CIPHERTEXT_PREFIX.length))).not.toContain('canary');
    // nonce (12) + JSON '"secret canary"' (15) + tag (16)
    expect(base64ToBytes(a.slice(CIPHERTEXT_PREFIX.length)).length).toBe(12 + 15 + 16);
  });

  it('detects tampering with any byte', () => {
    const ciphertext = encryptField(key, { text: 'hello' }, ctx);
    const bytes = base64ToBytes(ciphertext.slice(CIPHERTEXT_PREFIX.length));
    for (const index of [0, 11, 12, bytes.length - 17, bytes.length - 1]) {
      const tampered = bytes.slice();
      tampered[index] = (tampered[index] ?? 0) ^ 0x01;
      expectDecryptError(() => decryptField(key, CIPHERTEXT_PREFIX + bytesToBase64(tampered), ctx), 'authentication-failed');
    }
    expectDecryptError(() => decryptField(key, CIPHERTEXT_PREFIX + bytesToBase64(bytes.slice(0, 20)), ctx), 'malformed');
    expectDecryptError(() => decryptField(key, 'plain text', ctx), 'malformed');
    expectDecryptError(() => decryptField(key, 'v2:AAAA', ctx), 'unsupported-version');
    expectDecryptError(() => decryptField(key, 'v1:%%%not base64', ctx), 'malformed');
  });

  it('binds a ciphertext to its collection, document and field', () => {
    const ciphertext = encryptField(key, 'only here', ctx);
    expect(decryptField(key, ciphertext, { ...ctx })).toBe('only here');
    expectDecryptError(() => decryptField(key, ciphertext, { ...ctx, documentId: 'doc-2' }), 'authentication-failed');
    expectDecryptError(() => decryptField(key, ciphertext, { ...ctx, field: 'comments' }), 'authentication-failed');
    expectDecryptError(() => decryptField(key, ciphertext, { ...ctx, collection: 'voice' }), 'authentication-failed');
    // Separator confusion cannot map one context onto another.
    const tricky = encryptField(key, 'x', { collection: 'a', documentId: 'b:c', field: 'd' });
    expectDecryptError(() => decryptField(key, tricky, { collection: 'a:b', documentId: 'c', field: 'd' }), 'authentication-failed');
  });

  it('fails with a typed error under another key', () => {
    const ciphertext = encryptField(key, 'mine', ctx);
    expectDecryptError(() => decryptField(otherKey, ciphertext, ctx), 'authentication-failed');
  });

  it('rejects keys that are not 32 bytes', () => {
    expect(() => asDataKey(new Uint8Array(16))).toThrow(/32 bytes/);
  });

  it('seals document records (v2) bound to collection, id and field list', async () => {
    const doc = { collection: 'journal', documentId: 'doc-1', fields: ['description', 'canvas'] };
    const json = JSON.stringify({ description: 'secret canary', canvas: { strokes: [1] } });
    const record = await sealDocumentJson(key, json, documentAssociatedData(doc));
    expect(record.startsWith(DOCUMENT_CIPHERTEXT_PREFIX)).toBe(true);
    expect(isCiphertext(record)).toBe(true);
    expect(atob(record.slice(DOCUMENT_CIPHERTEXT_PREFIX.length))).not.toContain('canary');
    const context = documentErrorContext(doc);
    expect(await openDocumentJson(key, record, documentAssociatedData(doc), context)).toBe(json);
    const fails = async (promise: Promise<unknown>, code: DecryptError['code']) => {
      const error = await promise.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DecryptError);
      expect((error as DecryptError).code).toBe(code);
    };
    await fails(openDocumentJson(key, record, documentAssociatedData({ ...doc, documentId: 'doc-2' }), context), 'authentication-failed');
    await fails(openDocumentJson(key, record, documentAssociatedData({ ...doc, fields: ['description'] }), context), 'authentication-failed');
    await fails(openDocumentJson(key, record, documentAssociatedData({ ...doc, collection: 'voice' }), context), 'authentication-failed');
    await fails(openDocumentJson(otherKey, record, documentAssociatedData(doc), context), 'authentication-failed');
    const bytes = base64ToBytes(record.slice(DOCUMENT_CIPHERTEXT_PREFIX.length));
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    await fails(openDocumentJson(key, DOCUMENT_CIPHERTEXT_PREFIX + bytesToBase64(bytes), documentAssociatedData(doc), context), 'authentication-failed');
    // A v1 value is not a document record, and the other way round.
    await fails(openDocumentJson(key, encryptField(key, 'x', ctx), documentAssociatedData(doc), context), 'unsupported-version');
    expectDecryptError(() => decryptField(key, record, ctx), 'unsupported-version');
  });
});
