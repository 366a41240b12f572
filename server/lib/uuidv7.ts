import { randomBytes } from 'node:crypto';

/**
 * RFC 9562 UUIDv7: 48-bit Unix milliseconds, then a 12-bit counter (rand_a) that increases within
 * one millisecond, then 62 random bits. Ids made by this process therefore sort by creation time,
 * even several in the same millisecond. Clients may give their own ids on create (random UUIDs), so
 * never order rows by id to mean time: use created_at, with the id only to break ties.
 */
let lastMs = 0;
let counter = 0;

function format(ms: number, counter: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A UUIDv7 for a given moment (seed data written "in the past"); not ordered within a millisecond. */
export const uuidv7At = (ms: number): string => format(ms, randomBytes(2).readUInt16BE(0) & 0xfff);

export function uuidv7(now = Date.now()): string {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    counter += 1;
    if (counter > 0xfff) {
      // 4096 ids in one millisecond: borrow the next millisecond rather than repeat an order.
      ms += 1;
      counter = 0;
    }
  } else {
    counter = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  lastMs = ms;
  return format(ms, counter);
}
