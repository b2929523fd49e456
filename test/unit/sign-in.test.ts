// The pure parts of signing in: how an Authorization header is read (as WordPress reads Basic),
// application passwords (shape, what is compared, the keyed hash) and the role a password keeps.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readCredentials } from '#lib/auth/tokens.js';
import { formatPassword, generatePassword, hashesEqual, hashPassword, normalizePassword, PASSWORD_LENGTH } from '#lib/auth/app-passwords.js';
import { lowerRole } from '#lib/auth/sign-in.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('readCredentials', () => {
  it.each([
    [undefined, { scheme: 'none' }],
    ['', { scheme: 'none' }],
    ['   ', { scheme: 'none' }],
    ['Bearer abc.def.ghi', { scheme: 'bearer', token: 'abc.def.ghi' }],
    ['bearer abc', { scheme: 'bearer', token: 'abc' }],
    [`Basic ${b64('alice:pw one')}`, { scheme: 'basic', login: 'alice', password: 'pw one' }],
    [`basic ${b64('alice:pw')}`, { scheme: 'basic', login: 'alice', password: 'pw' }],
    [`BASIC ${b64('a:b:c')}`, { scheme: 'basic', login: 'a', password: 'b:c' }],
    [`Basic ${b64(':pw')}`, { scheme: 'basic', login: '', password: 'pw' }],
    [`Basic ${b64('üser:pässword')}`, { scheme: 'basic', login: 'üser', password: 'pässword' }],
    // As WordPress: these are no credentials at all.
    [`Basic ${b64('alice:')}`, { scheme: 'none' }],
    [`Basic ${b64('alicepw')}`, { scheme: 'none' }],
    ['Basic !!!not-base64!!!', { scheme: 'none' }],
    ['Basic', { scheme: 'none' }],
    ['Basic ', { scheme: 'none' }],
    // Two credentials (two headers, joined by API Gateway with a comma, or a list in one).
    [`Basic ${b64('a:b')}, Basic ${b64('a:c')}`, { scheme: 'several' }],
    [`Basic ${b64('a:b')},Bearer x`, { scheme: 'several' }],
    ['Digest username="x"', { scheme: 'other' }],
    ['Bearer', { scheme: 'other' }],
    ['Bearer a b', { scheme: 'other' }],
  ])('%j', (header, expected) => {
    expect(readCredentials(header)).toEqual(expected);
  });
});

describe('application passwords', () => {
  it('are 24 letters and digits, shown in six groups of four', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const raw = generatePassword();
      expect(raw).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(formatPassword(raw)).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
      seen.add(raw);
    }
    expect(seen.size).toBe(200);
    expect(PASSWORD_LENGTH).toBe(24);
  });

  it('draw every letter and digit (no biased or missing characters)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) for (const ch of generatePassword()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
  });

  it('compare only letters and digits, and case matters', () => {
    const key = Buffer.from('k');
    const raw = 'AbCd1234EfGh5678IjKl9012';
    const stored = hashPassword(key, raw);
    for (const form of [raw, formatPassword(raw), formatPassword(raw).replaceAll(' ', '-'), ` ${raw}\t`]) {
      expect(hashesEqual(hashPassword(key, form), stored), form).toBe(true);
    }
    expect(hashesEqual(hashPassword(key, raw.toLowerCase()), stored)).toBe(false);
    expect(hashesEqual(hashPassword(key, raw.slice(1)), stored)).toBe(false);
    expect(normalizePassword('ab-c d_e.f')).toBe('abcdef');
  });

  it('hash under the key: another key gives another hash, and the hash never holds the password', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{24}$/), (raw) => {
        const a = hashPassword(Buffer.from('key one'), raw);
        const b = hashPassword(Buffer.from('key two'), raw);
        expect(a).not.toBe(b);
        expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(a.includes(raw)).toBe(false);
      }),
    );
    expect(hashesEqual('short', 'longer-hash')).toBe(false);
  });
});

describe('the role a password signs in with', () => {
  it("is the lower of the role it was made with and its user's current role", () => {
    expect(lowerRole('editor', 'contributor')).toBe('contributor');
    expect(lowerRole('author', 'editor')).toBe('author');
    expect(lowerRole('editor', 'editor')).toBe('editor');
    expect(lowerRole('editor', 'none')).toBeUndefined();
    expect(lowerRole('none', 'editor')).toBeUndefined();
  });
});
