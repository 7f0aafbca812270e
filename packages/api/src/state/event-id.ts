// Time-ordered unique ids (UUID version 7, RFC 9562) for rows written on the
// hot path: usage events (also the payment provider's meter event
// identifier), their meter-outbox rows and spend reservations.
//
// Why not randomUUID (version 4): these ids are primary keys. Random keys
// land on a random leaf of the index, so every event of a group commit
// dirties pages of its own and the commit writes them all; ids that grow
// with time append to the same few leaves. Measured on SQLite (WAL, 30,000
// events in the table, batches of 12): 420–550 µs per event with v4,
// 120–170 µs with v7 (docs/performance.md, "Profiles"). PostgreSQL's
// B-trees gain the same way. 74 random bits per millisecond keep them unique.
import { randomFillSync } from 'node:crypto';

/** Random bytes drawn 4 KiB at a time (one system call per 256 ids, as randomUUID does). */
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** A UUID v7: 48 bits of Unix milliseconds, then version, variant and random bits. */
export function timeOrderedId(now = Date.now()): string {
  if (offset + 16 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const b = Buffer.from(pool.subarray(offset, offset + 16));
  offset += 16;
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
