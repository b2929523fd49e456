// Entity tags, their comparison and the caching policy (lib/http/conditional.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/contract/errors.js';
import { cacheControl, entityTag, noneMatch } from '#lib/http/conditional.js';
import { parseTags, requireMatch } from '#lib/contract/revision.js';

const failsWith412 = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(412);
    expect((err as ApiError).code).toBe('rest_precondition_failed');
    return;
  }
  throw new Error('expected a 412');
};

describe('entityTag', () => {
  it('names the record and revision of a single record, and digests what was shown', () => {
    const tag = entityTag('{"id":7}', { id: 7, version: 3 });
    expect(tag).toMatch(/^"7\.3\.[A-Za-z0-9_-]{22}"$/);
    expect(entityTag('{"id":7}', { id: 7, version: 3 })).toBe(tag);
    // Another body, another revision or other headers (a list's totals) give another tag.
    expect(entityTag('{"id":7,"x":1}', { id: 7, version: 3 })).not.toBe(tag);
    expect(entityTag('{"id":7}', { id: 7, version: 4 })).not.toBe(tag);
    expect(entityTag('[]', undefined, '{"x-wp-total":"1"}')).not.toBe(entityTag('[]', undefined, '{"x-wp-total":"2"}'));
    expect(entityTag('[]')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it('differs for different bodies (property)', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => a === b || entityTag(a) !== entityTag(b)));
  });
});

describe('If-None-Match', () => {
  const tag = '"abc"';
  it('matches the tag, weakly, in a list, and *', () => {
    expect(noneMatch(undefined, tag)).toBe(false);
    expect(noneMatch('"abc"', tag)).toBe(true);
    expect(noneMatch('W/"abc"', tag)).toBe(true);
    expect(noneMatch('"x", W/"y" , "abc"', tag)).toBe(true);
    expect(noneMatch('*', tag)).toBe(true);
    expect(noneMatch('"abcd"', tag)).toBe(false);
    expect(noneMatch('abc', tag)).toBe(false);
    expect(noneMatch('', tag)).toBe(false);
  });
  it('ignores what is not a tag', () => {
    expect(parseTags('garbage, "ok", W/"weak"')).toEqual({
      any: false,
      tags: [
        { tag: '"ok"', weak: false },
        { tag: '"weak"', weak: true },
      ],
    });
  });
});

describe('If-Match', () => {
  const record = { id: 12, version: 5 };
  const current = entityTag('{}', record);
  it('holds for the current revision or *, whatever the digest', () => {
    expect(() => requireMatch(undefined, record)).not.toThrow();
    expect(() => requireMatch(current, record)).not.toThrow();
    expect(() => requireMatch('"12.5.AAAAAAAAAAAAAAAAAAAAAA"', record)).not.toThrow();
    expect(() => requireMatch(`"x", ${current}`, record)).not.toThrow();
    expect(() => requireMatch('*', record)).not.toThrow();
  });
  it('fails for another revision, another record, a weak tag, a list tag or junk', () => {
    for (const value of [entityTag('{}', { id: 12, version: 4 }), entityTag('{}', { id: 13, version: 5 }), `W/${current}`, entityTag('{}'), 'nonsense', '']) {
      failsWith412(() => requireMatch(value, record));
    }
  });
});

describe('cacheControl', () => {
  it('lets shared caches keep only what may be shared', () => {
    const policy = { cacheMaxAge: 7, cacheStaleWhileRevalidate: 30 };
    expect(cacheControl(policy, true)).toBe('public, max-age=7, stale-while-revalidate=30');
    expect(cacheControl(policy, false)).toBe('private, no-store');
  });
});
