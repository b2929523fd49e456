// Sync cursors: what this API made reads back, within the retention; an old one, a forged one or
// one made with another key is expired (the client syncs from scratch); what is no cursor is malformed.
import { describe, expect, it } from 'vitest';
import { makeCursor, readCursor } from '#lib/domain/sync-cursor.js';

const KEY = Buffer.from('a key of this API, thirty-two bytes!');
const OTHER = Buffer.from('another key, of another deployment');
const DAY = 86_400_000;
const RETENTION = 30 * DAY;
const AT = Date.UTC(2027, 0, 15, 12, 0, 0);
const POSITION = '2027-01-15T12:00:00.000Z#000042';

describe('sync cursors', () => {
  it('read back what they hold, in a form a query string takes as it is', () => {
    const cursor = makeCursor(POSITION, AT, KEY);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(cursor)).toBe(cursor);
    expect(readCursor(cursor, KEY, AT + DAY, RETENTION)).toEqual({ ok: true, position: POSITION, at: AT });
  });

  it('expire past the retention, and are not this API’s when signed with another key or changed', () => {
    const cursor = makeCursor(POSITION, AT, KEY);
    expect(readCursor(cursor, KEY, AT + RETENTION, RETENTION).ok).toBe(true);
    expect(readCursor(cursor, KEY, AT + RETENTION + 1, RETENTION)).toEqual({ ok: false, why: 'expired' });
    expect(readCursor(cursor, OTHER, AT, RETENTION)).toEqual({ ok: false, why: 'expired' });
    // A client that moves its cursor forward, or makes its own, holds no cursor of this API's.
    const [, encoded, tag] = cursor.split('.');
    const later = `${(AT + DAY).toString(36)}.${encoded}.${tag}`;
    expect(readCursor(later, KEY, AT + DAY, RETENTION)).toEqual({ ok: false, why: 'expired' });
    const elsewhere = `${AT.toString(36)}.${Buffer.from('2099-01-01#1').toString('base64url')}.${tag}`;
    expect(readCursor(elsewhere, KEY, AT, RETENTION)).toEqual({ ok: false, why: 'expired' });
  });

  it('call what is no cursor malformed, cheaply whatever its size', () => {
    const cursor = makeCursor(POSITION, AT, KEY);
    for (const bad of ['', 'abc', 'a.b', 'a.b.c.d', `${cursor}=`, cursor.replace('.', '..'), '%%%.%%%.%%%', 'x'.repeat(100_000), `${cursor}.${cursor}`]) {
      expect([bad.slice(0, 40), readCursor(bad, KEY, AT, RETENTION)]).toEqual([bad.slice(0, 40), { ok: false, why: 'malformed' }]);
    }
    // A signature of the wrong length is no cursor of any key.
    expect(readCursor(cursor.replace(/\.[^.]+$/, '.AAAA'), KEY, AT, RETENTION)).toEqual({ ok: false, why: 'malformed' });
  });

  it('refuse a position that is not the log’s', () => {
    for (const bad of ['', ' ', 'line\nbreak', 'x'.repeat(201)]) expect(() => makeCursor(bad, AT, KEY)).toThrow(/printable/);
  });
});
